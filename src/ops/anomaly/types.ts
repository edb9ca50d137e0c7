import type { AnomalyResponse } from "../../config/anomalies.ts";

export const ANOMALY_KINDS = ["burst", "denials", "errors", "exfiltration"] as const;
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

/** What a detector saw: enough for the alert's record, metric and line. */
export interface AnomalyFinding {
  kind: AnomalyKind;
  /** The count or bytes that crossed the threshold. */
  observed: number;
  /** The session's own usual and the gateway's usual, in the same unit. */
  baseline: { session: number; gateway: number };
  threshold: number;
  /** In words, e.g. `burst of 412 calls in 10 s (its usual 2, the gateway's 3)`. */
  why: string;
}

/** One alert raised: the finding, who, and the response taken. */
export interface AnomalyAlert extends AnomalyFinding {
  time: number;
  session: string;
  client: string | null;
  response: AnomalyResponse;
}
