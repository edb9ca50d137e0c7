import type { Gateway } from "../gateway/gateway.ts";
import type { ModelClient } from "../llm/types.ts";
import type { AgentEventListener } from "./events.ts";

/** Why a run ended: the model answered, the turn limit, the caller's signal, or a failed model request. */
export type AgentStop = "answer" | "max_turns" | "cancelled" | "error";

export interface AgentUsage {
  /** Model requests that were answered. */
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

export interface AgentToolCall {
  name: string;
  durationMs: number;
  isError: boolean;
  /** Characters of the result text the model read. */
  resultChars: number;
}

export interface AgentRunResult {
  /** The model's final text; when it did not answer, a sentence saying why the run stopped. */
  answer: string;
  stopped: AgentStop;
  /** Model requests sent (the one in flight at a cancellation or failure included). */
  turns: number;
  usage: AgentUsage;
  toolCalls: AgentToolCall[];
  durationMs: number;
  /** With `stopped: "error"`: an AgentError whose `cause` is the model's error. */
  error?: Error;
}

export interface AgentRunOptions {
  /** Aborts the model request and the tool call in flight (the gateway stops a running program). */
  signal?: AbortSignal;
}

export interface AgentOptions {
  gateway: Gateway;
  model: ModelClient;
  /** Model requests per run (default DEFAULT_MAX_TURNS). */
  maxTurns?: number;
  /** Replaces the code-mode system prompt (system-prompt.ts). */
  system?: string;
  onEvent?: AgentEventListener;
  /**
   * Which of the gateway's MCP tools the model gets, by name. Default: the
   * meta-tools of code mode (AGENT_META_TOOLS). The eval's direct mode passes the
   * passed-through upstream tools instead.
   */
  tools?: (name: string) => boolean;
  /** Output tokens per model request; the model client's configured default when absent. */
  maxTokens?: number;
}

export interface Agent {
  run(task: string, options?: AgentRunOptions): Promise<AgentRunResult>;
  /** Closes the agent's MCP connection to the gateway (the gateway stays open). */
  close(): Promise<void>;
}

export const DEFAULT_MAX_TURNS = 20;
