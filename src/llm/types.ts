// The model seam: one provider-neutral shape for a request to a language model
// and its answer. Anthropic's Messages API, OpenAI's Chat Completions (and the
// servers that speak it: Ollama, vLLM, LM Studio) and MCP sampling each sit
// behind a `ModelClient`; solve_task, the agent runner and the eval harness
// only ever see this file's types.

export type ModelProvider = "anthropic" | "openai" | "sampling";

export interface ModelText {
  type: "text";
  text: string;
}

/** The model asks for a tool; `id` pairs it with its result in the next user turn. */
export interface ModelToolUse {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** The answer to a `tool_use`, sent back in a user turn. */
export interface ModelToolResult {
  type: "tool_result";
  toolUseId: string;
  /** What the tool returned, as the text the model reads. */
  content: string;
  isError?: boolean;
}

export type ModelContent = ModelText | ModelToolUse | ModelToolResult;

export interface ModelMessage {
  role: "user" | "assistant";
  content: ModelContent[];
}

/** A tool offered to the model: its JSON Schema input, as MCP lists it. */
export interface ModelTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  system?: string | undefined;
  messages: ModelMessage[];
  tools?: ModelTool[] | undefined;
  /** Default: the configured `toolscript.llm.maxTokens`. */
  maxTokens?: number | undefined;
  temperature?: number | undefined;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Why the model stopped: it answered, it wants tools run, or it ran out of tokens. */
export type ModelStopReason = "end_turn" | "tool_use" | "max_tokens" | "other";

export interface ModelResponse {
  /** Text and tool_use blocks, in the order the model produced them. */
  content: Array<ModelText | ModelToolUse>;
  stopReason: ModelStopReason;
  usage: ModelUsage;
  /** The model that answered, as the provider names it. */
  model: string;
}

export interface ModelCallOptions {
  signal?: AbortSignal | undefined;
  /** Text as it streams in (the whole answer still comes back in the response). */
  onText?: ((delta: string) => void) | undefined;
}

export interface ModelClient {
  readonly provider: ModelProvider;
  readonly model: string;
  /** Throws `ModelError` (src/llm/errors.ts); retries 429 and 5xx itself. */
  complete(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
}
