import { formatCount } from "../output/format-number.ts";
import type { AgentEvent } from "./events.ts";
import type { AgentRunResult } from "./types.ts";

/**
 * The stderr line for one agent event (no trailing newline), or undefined for
 * events that print nothing: a turn's start (its end says it all) and the answer
 * (it goes to stdout).
 *
 *     turn 1: 1,204 tokens in, 96 out, 1.4 s, 1 tool use
 *       → execute_code const rows = await tools.scripted.rows({ count: 5 }); (+2 lines)
 *       ← execute_code 312 chars, 88 tokens, 45 ms
 */
export function formatAgentEvent(event: AgentEvent): string | undefined {
  switch (event.type) {
    case "turn_started":
    case "answer":
      return undefined;
    case "turn_finished": {
      const { usage } = event;
      const what =
        event.toolUses > 0
          ? `${event.toolUses} tool ${event.toolUses === 1 ? "use" : "uses"}`
          : event.stopReason === "max_tokens"
            ? "cut at the output limit"
            : "answered";
      return `turn ${event.turn}: ${formatCount(usage.inputTokens)} tokens in, ${formatCount(usage.outputTokens)} out, ${formatDuration(event.durationMs)}, ${what}`;
    }
    case "tool_started":
      return `  → ${event.name}${event.summary === "" ? "" : ` ${event.summary}`}`;
    case "tool_finished": {
      const size = [
        `${formatCount(event.resultChars)} chars`,
        ...(event.resultTokens === undefined ? [] : [`${formatCount(event.resultTokens)} tokens`]),
        formatDuration(event.durationMs),
      ].join(", ");
      return event.isError ? `  ✗ ${event.name} failed: ${size}` : `  ← ${event.name} ${size}`;
    }
  }
}

/**
 * The closing stderr line of a run: how it ended, turns, tool calls and tokens.
 * `cost` (the usage ledger's price, e.g. "$0.0123") is appended when given.
 */
export function formatRunSummary(result: AgentRunResult, cost?: string): string {
  const failedCalls = result.toolCalls.filter((call) => call.isError).length;
  const parts = [
    `${result.turns} ${result.turns === 1 ? "turn" : "turns"}`,
    `${result.toolCalls.length} tool ${result.toolCalls.length === 1 ? "call" : "calls"}${failedCalls > 0 ? ` (${failedCalls} failed)` : ""}`,
    `${formatCount(result.usage.inputTokens)} tokens in / ${formatCount(result.usage.outputTokens)} out over ${result.usage.requests} ${result.usage.requests === 1 ? "request" : "requests"}`,
    formatDuration(result.durationMs),
    ...(cost === undefined ? [] : [cost]),
  ];
  return `${HOW_IT_ENDED[result.stopped]}: ${parts.join(", ")}`;
}

const HOW_IT_ENDED: Record<AgentRunResult["stopped"], string> = {
  answer: "answered",
  max_turns: "stopped at the turn limit",
  cancelled: "cancelled",
  error: "failed",
};

export function formatDuration(ms: number): string {
  const rounded = Math.round(ms);
  return rounded < 1000 ? `${rounded} ms` : `${(ms / 1000).toFixed(1)} s`;
}
