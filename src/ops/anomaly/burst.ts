import type { AnomalySettings } from "../../config/anomalies.ts";
import { countText } from "./quantity-text.ts";
import type { SessionActivity } from "./session-activity.ts";
import type { AnomalyFinding } from "./types.ts";

/**
 * A burst: the session's calls in the window reach max(minCalls, factor × its
 * usual, gatewayFactor × the gateway's usual). Its usual is the larger of its
 * mean calls per execution and per active window, so a session that runs
 * ordinary programs back to back raises its own bar after the first; the
 * gateway's is the mean calls per execution. The floor keeps a first
 * execution and ordinary loops quiet.
 */
export function detectBurst(
  activity: SessionActivity,
  gatewayUsual: number,
  settings: AnomalySettings["burst"],
  now: number,
): AnomalyFinding | undefined {
  const observed = activity.calls.recent(now);
  if (observed < settings.minCalls) return undefined;
  const session = Math.max(activity.calls.usual(), activity.callsPerExecution());
  const threshold = Math.max(
    settings.minCalls,
    settings.factor * session,
    settings.gatewayFactor * gatewayUsual,
  );
  if (observed < threshold) return undefined;
  return {
    kind: "burst",
    observed,
    baseline: { session, gateway: gatewayUsual },
    threshold,
    why: `burst of ${observed} calls in ${settings.windowSeconds} s (its usual ${countText(session)}, the gateway's ${countText(gatewayUsual)})`,
  };
}
