import type { AnomalySettings } from "../../config/anomalies.ts";
import { bytesText } from "./quantity-text.ts";
import type { AnomalyFinding } from "./types.ts";

/** A write-like call just made, with what the session read before it. */
export interface WriteFacts {
  /** `server/tool`. */
  tool: string;
  argsBytes: number;
  /** Bytes of results of the session's other (not write-like) calls in the window. */
  readBytes: number;
  /** Mean arguments size of this session's earlier calls of the tool (0: first call). */
  toolUsual: number;
  /** Mean arguments size of write-like calls across the gateway. */
  gatewayUsual: number;
}

/**
 * Possible exfiltration: a large volume read, then a write-like tool sent
 * arguments of at least max(minWriteBytes, factor × that tool's usual for the
 * session, factor × the gateway's usual write).
 */
export function detectExfiltration(
  facts: WriteFacts,
  settings: AnomalySettings["exfiltration"],
): AnomalyFinding | undefined {
  if (facts.readBytes < settings.minReadBytes || facts.argsBytes < settings.minWriteBytes) return undefined;
  const threshold = Math.max(
    settings.minWriteBytes,
    settings.factor * facts.toolUsual,
    settings.factor * facts.gatewayUsual,
  );
  if (facts.argsBytes < threshold) return undefined;
  return {
    kind: "exfiltration",
    observed: facts.argsBytes,
    baseline: { session: facts.toolUsual, gateway: facts.gatewayUsual },
    threshold,
    why: `sent ${bytesText(facts.argsBytes)} to ${facts.tool} after reading ${bytesText(facts.readBytes)} in ${settings.windowSeconds} s (its usual ${bytesText(facts.toolUsual)} there, the gateway's ${bytesText(facts.gatewayUsual)} per write)`,
  };
}
