import { z } from "zod";

/** What the gateway does when a session trips a detector. */
export const ANOMALY_RESPONSES = ["log", "approve", "block"] as const;
export type AnomalyResponse = (typeof ANOMALY_RESPONSES)[number];

const int = (min: number, max: number) => z.int().min(min).max(max);
const response = (fallback: AnomalyResponse) => z.enum(ANOMALY_RESPONSES).default(fallback);

/**
 * `toolscript.anomalies`: rolling per-session baselines and the alerts when a
 * session departs from its own and the gateway's recent behaviour. Defaults
 * stay quiet on ordinary use (a program of 20-50 calls, a first execution).
 */
export const anomaliesSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Per kind: `log` only, `approve` (the session's next side-effecting calls need approval), or `block` the session. */
  responses: z
    .strictObject({
      burst: response("log"),
      denials: response("approve"),
      errors: response("log"),
      exfiltration: response("approve"),
    })
    .prefault({}),
  /** One alert per session and kind within this many seconds. */
  cooldownSeconds: int(0, 7 * 24 * 3600).default(600),
  /** How long an `approve` or `block` response lasts; 0: until the gateway restarts. */
  responseTtlSeconds: int(0, 30 * 24 * 3600).default(3600),
  /** A session without tool calls this long is forgotten (its baselines too). */
  idleSessionSeconds: int(60, 30 * 24 * 3600).default(1800),
  /**
   * Calls in the window at or above max(minCalls, the calls of the session's executions ended in the
   * window + factor × its mean calls per execution, factor × its mean per active window, gatewayFactor
   * × the gateway's mean calls per execution): programs back to back are expected, one program far
   * above the session's habit is not (a session's busy windows would hide others' bursts).
   */
  burst: z
    .strictObject({
      windowSeconds: int(1, 3600).default(10),
      minCalls: int(1, 10_000_000).default(200),
      factor: z.number().min(1).max(1000).default(5),
      gatewayFactor: z.number().min(1).max(1000).default(4),
    })
    .prefault({}),
  /** Policy refusals in the window at or above max(minCount, factor × the usual). */
  denials: z
    .strictObject({
      windowSeconds: int(1, 24 * 3600).default(60),
      minCount: int(1, 1_000_000).default(8),
      factor: z.number().min(1).max(1000).default(5),
    })
    .prefault({}),
  /** Failed calls (errors, not refusals) in the window at or above max(minCount, factor × the usual). */
  errors: z
    .strictObject({
      windowSeconds: int(1, 24 * 3600).default(60),
      minCount: int(1, 1_000_000).default(25),
      factor: z.number().min(1).max(1000).default(5),
    })
    .prefault({}),
  /**
   * A write-like call whose arguments are at least max(minWriteBytes, factor × that tool's usual)
   * after the session read at least minReadBytes (results of other calls) in the window.
   */
  exfiltration: z
    .strictObject({
      windowSeconds: int(1, 24 * 3600).default(300),
      minReadBytes: int(1, 1e12).default(1_048_576),
      minWriteBytes: int(1, 1e12).default(65_536),
      factor: z.number().min(1).max(1000).default(4),
    })
    .prefault({}),
});

export type AnomalySettings = z.output<typeof anomaliesSchema>;
