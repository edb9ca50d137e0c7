import type { AnomalySettings } from "../../config/anomalies.ts";
import { countText } from "./quantity-text.ts";
import type { SessionActivity } from "./session-activity.ts";
import type { AnomalyFinding } from "./types.ts";

/**
 * A burst: the session's calls in the window reach
 * max(minCalls, the calls of its executions ended in the window + factor × its
 * mean calls per execution, factor × its mean per active window, gatewayFactor
 * × the gateway's mean calls per execution). The executions ended in the
 * window are counted as they were, so ordinary programs run back to back never
 * add up to a burst, while one program far above the session's habit does.
 * The floor keeps a first execution and ordinary loops quiet.
 */
export function detectBurst(
  activity: SessionActivity,
  gatewayUsual: number,
  settings: AnomalySettings["burst"],
  now: number,
): AnomalyFinding | undefined {
  const observed = activity.calls.recent(now);
  if (observed < settings.minCalls) return undefined;
  const ended = activity.endedCalls.recent(now);
  const perExecution = activity.callsPerExecution();
  const perWindow = activity.calls.usual(now);
  const threshold = Math.max(
    settings.minCalls,
    ended + settings.factor * perExecution,
    settings.factor * perWindow,
    settings.gatewayFactor * gatewayUsual,
  );
  if (observed < threshold) return undefined;
  // Its usual: what its habit predicts for the window (the ended executions and one more).
  const session = Math.max(ended + perExecution, perWindow);
  return {
    kind: "burst",
    observed,
    baseline: { session, gateway: gatewayUsual },
    threshold,
    why: `burst of ${observed} calls in ${settings.windowSeconds} s (its usual ${countText(session)}, the gateway's ${countText(gatewayUsual)})`,
  };
}
