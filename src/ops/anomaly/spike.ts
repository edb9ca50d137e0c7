import type { AnomalySettings } from "../../config/anomalies.ts";
import { countText } from "./quantity-text.ts";
import type { RollingCounter } from "./rolling-counter.ts";
import type { AnomalyFinding } from "./types.ts";

const WHAT = { denials: "policy denials", errors: "failed calls" } as const;

/**
 * A spike of policy denials or of errors: the count in the window reaches
 * max(minCount, factor × the session's usual per window, factor × the gateway's).
 * Only asked when the call just seen was one, so a quiet session costs nothing.
 */
export function detectSpike(
  kind: "denials" | "errors",
  counter: RollingCounter,
  gatewayUsual: number,
  settings: AnomalySettings["denials"],
  now: number,
): AnomalyFinding | undefined {
  const observed = counter.recent(now);
  if (observed < settings.minCount) return undefined;
  const session = counter.usual(now);
  const threshold = Math.max(settings.minCount, settings.factor * session, settings.factor * gatewayUsual);
  if (observed < threshold) return undefined;
  return {
    kind,
    observed,
    baseline: { session, gateway: gatewayUsual },
    threshold,
    why: `${observed} ${WHAT[kind]} in ${settings.windowSeconds} s (its usual ${countText(session)}, the gateway's ${countText(gatewayUsual)})`,
  };
}
