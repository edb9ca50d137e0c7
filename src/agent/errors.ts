import { CodedError } from "../errors/coded-error.ts";

export type AgentErrorCode =
  /** The model request failed (the `ModelError` of src/llm is the `cause`). */
  | "agent.model_failed"
  /** The gateway's own MCP server could not be reached or listed. */
  | "agent.tools_unavailable"
  /** `run` after `close`. */
  | "agent.closed"
  /** An option out of range (`data.option` names it). */
  | "agent.invalid_option";

export class AgentError extends CodedError<AgentErrorCode> {
  override readonly name = "AgentError";
}
