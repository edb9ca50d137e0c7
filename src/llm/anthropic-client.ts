import type Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsBase,
  MessageParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import { type HostedClientOptions, sdkLogging } from "./client-options.ts";
import { ModelError, type ModelErrorData } from "./errors.ts";
import { fromSdkError, type SdkErrorClasses } from "./sdk-errors.ts";
import type {
  ModelCallOptions,
  ModelClient,
  ModelContent,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  ModelText,
  ModelToolUse,
} from "./types.ts";

/** Pinned so `ANTHROPIC_BASE_URL` in the environment does not redirect requests: only the config says where. */
const DEFAULT_BASE_URL = "https://api.anthropic.com";

type AnthropicModule = typeof import("@anthropic-ai/sdk");

function blockParam(block: ModelContent): ContentBlockParam {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
    case "tool_result":
      return {
        type: "tool_result",
        tool_use_id: block.toolUseId,
        content: block.content,
        ...(block.isError === true && { is_error: true }),
      };
  }
}

/** The Messages API body of a ModelRequest (without `stream`). */
export function anthropicParams(
  request: ModelRequest,
  model: string,
  maxTokens: number,
): MessageCreateParamsBase {
  const messages: MessageParam[] = request.messages.map((message) => ({
    role: message.role,
    content: message.content.map(blockParam),
  }));
  const tools: Tool[] | undefined = request.tools?.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: "object", ...tool.inputSchema } as Tool["input_schema"],
  }));
  return {
    model,
    max_tokens: request.maxTokens ?? maxTokens,
    messages,
    ...(request.system !== undefined && { system: request.system }),
    ...(tools !== undefined && tools.length > 0 && { tools }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
  };
}

function stopReason(reason: Message["stop_reason"]): ModelStopReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "end_turn";
    case "tool_use":
      return "tool_use";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_tokens";
    default:
      return "other";
  }
}

/** A ModelResponse from the API's message; blocks other than text and tool_use (thinking…) are left out. */
export function anthropicResponse(message: Message, data: ModelErrorData): ModelResponse {
  const content: Array<ModelText | ModelToolUse> = [];
  for (const block of message.content) {
    if (block.type === "text") content.push({ type: "text", text: block.text });
    else if (block.type === "tool_use") {
      const input = block.input;
      if (typeof input !== "object" || input === null || Array.isArray(input)) {
        throw new ModelError("llm.bad_response", `the input of tool "${block.name}" is not a JSON object`, {
          ...data,
          tool: block.name,
        });
      }
      content.push({
        type: "tool_use",
        id: block.id,
        name: block.name,
        input: input as Record<string, unknown>,
      });
    }
  }
  const stop = stopReason(message.stop_reason);
  if (content.length === 0 && stop !== "max_tokens" && stop !== "other") {
    throw new ModelError(
      "llm.bad_response",
      `${data.provider} (${data.model}) returned an empty answer`,
      data,
    );
  }
  const usage = message.usage;
  return {
    content,
    stopReason: stop,
    usage: {
      // Cache reads and writes are input too (billed at other rates).
      inputTokens:
        usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
      outputTokens: usage.output_tokens,
    },
    model: message.model,
  };
}

/** A ModelClient over Anthropic's Messages API; the SDK is loaded on the first request. */
export function createAnthropicClient(options: HostedClientOptions): ModelClient {
  let loaded: Promise<{ sdk: AnthropicModule; client: Anthropic }> | undefined;
  const load = () => {
    loaded ??= import("@anthropic-ai/sdk").then((sdk) => ({
      sdk,
      client: new sdk.Anthropic({
        apiKey: options.apiKey ?? null,
        baseURL: options.baseUrl ?? DEFAULT_BASE_URL,
        maxRetries: options.maxRetries,
        timeout: options.timeoutMs,
        ...sdkLogging,
      }),
    }));
    return loaded;
  };
  const data: ModelErrorData = { provider: "anthropic", model: options.model };

  return {
    provider: "anthropic",
    model: options.model,
    async complete(request: ModelRequest, call: ModelCallOptions = {}): Promise<ModelResponse> {
      const { sdk, client } = await load();
      const params = anthropicParams(request, options.model, options.maxTokens);
      const requestOptions = call.signal === undefined ? {} : { signal: call.signal };
      let message: Message;
      try {
        if (call.onText) {
          const onText = call.onText;
          const stream = client.messages.stream(params, requestOptions);
          stream.on("text", (delta) => onText(delta));
          message = await stream.finalMessage();
        } else {
          message = await client.messages.create({ ...params, stream: false }, requestOptions);
        }
      } catch (error) {
        throw fromSdkError(error, sdk as unknown as SdkErrorClasses, data, call.signal);
      }
      return anthropicResponse(message, data);
    },
  };
}
