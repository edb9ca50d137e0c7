// `toolscript/agent`: the agent runner (a model loop over the gateway's meta-tools) and its progress lines.
export type {
  ModelClient,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelTool,
  ModelUsage,
} from "../llm/types.ts";
export { createAgent } from "./create-agent.ts";
export { AgentError, type AgentErrorCode } from "./errors.ts";
export type { AgentEvent, AgentEventListener } from "./events.ts";
export { formatAgentEvent, formatRunSummary } from "./progress-lines.ts";
export { AGENT_META_TOOLS, codeModeSystemPrompt } from "./system-prompt.ts";
export {
  type Agent,
  type AgentOptions,
  type AgentRunOptions,
  type AgentRunResult,
  type AgentStop,
  type AgentToolCall,
  type AgentUsage,
  DEFAULT_MAX_TURNS,
} from "./types.ts";
