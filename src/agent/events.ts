import type { ModelStopReason, ModelUsage } from "../llm/types.ts";
import type { AgentStop } from "./types.ts";

/**
 * What an agent run reports as it goes, for progress lines (progress-lines.ts)
 * or any other observer. Turns count from 1; `id` pairs a tool call's start and end.
 */
export type AgentEvent =
  | { type: "turn_started"; turn: number }
  | {
      type: "turn_finished";
      turn: number;
      usage: ModelUsage;
      stopReason: ModelStopReason;
      /** Tool uses the model asked for in this turn. */
      toolUses: number;
      durationMs: number;
    }
  | {
      type: "tool_started";
      turn: number;
      id: string;
      name: string;
      /** A one-line view of the arguments (the first line of a program, a query). */
      summary: string;
    }
  | {
      type: "tool_finished";
      turn: number;
      id: string;
      name: string;
      durationMs: number;
      isError: boolean;
      /** Characters of the result text the model reads. */
      resultChars: number;
      /** Its tokens with the gateway's tokenizer; absent when counting it would not be cheap. */
      resultTokens?: number;
    }
  | { type: "answer"; text: string; stopped: AgentStop };

export type AgentEventListener = (event: AgentEvent) => void;

/** A listener that throws must not end the run it observes. */
export function safeListener(listener: AgentEventListener | undefined): AgentEventListener {
  if (!listener) return () => {};
  return (event) => {
    try {
      listener(event);
    } catch {
      // Progress is advisory: a broken printer loses lines, never the answer.
    }
  };
}
