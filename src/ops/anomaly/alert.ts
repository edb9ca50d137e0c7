import type { AuditEntry } from "../../store/types.ts";
import type { AnomalyAlert } from "./types.ts";

/**
 * The audit record of an alert: kind "anomaly", server "", tool = the anomaly's
 * kind, outcome = the response taken; detail holds the numbers and why.
 */
export function anomalyAuditEntry(alert: AnomalyAlert): AuditEntry {
  return {
    kind: "anomaly",
    time: alert.time,
    session: alert.session,
    client: alert.client ?? undefined,
    server: "",
    tool: alert.kind,
    argsDigest: "",
    argsBytes: 0,
    outcome: alert.response,
    durationMs: 0,
    detail: {
      observed: alert.observed,
      baseline: alert.baseline,
      threshold: alert.threshold,
      why: alert.why,
    },
  };
}

/** The stderr line: `anomaly: session "x": burst of 412 calls in 10 s (its usual 2, the gateway's 3); response: log`. */
export function anomalyLine(alert: AnomalyAlert): string {
  const who = alert.client ? `${alert.client}:${alert.session}` : alert.session;
  return `anomaly: session ${JSON.stringify(who)}: ${alert.why}; response: ${alert.response}`;
}
