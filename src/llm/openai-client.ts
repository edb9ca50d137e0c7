import type OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions/completions";
import { type HostedClientOptions, sdkLogging } from "./client-options.ts";
import { ModelError, type ModelErrorData } from "./errors.ts";
import { fromSdkError, type SdkErrorClasses } from "./sdk-errors.ts";
import type {
  ModelCallOptions,
  ModelClient,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  ModelText,
  ModelToolUse,
} from "./types.ts";

/** Pinned so `OPENAI_BASE_URL` in the environment does not redirect requests: only the config says where. */
const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Local servers (Ollama, vLLM, LM Studio) want no key, the SDK wants one: sent in its place. */
export const PLACEHOLDER_API_KEY = "toolscript-no-key";

type OpenAIModule = typeof import("openai");

/** One tool call as the API returns it (whole, or accumulated from stream deltas). */
interface RawToolCall {
  id: string;
  name: string;
  arguments: string;
}

function messagesOf(message: ModelMessage): ChatCompletionMessageParam[] {
  const text = message.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n\n");
  if (message.role === "assistant") {
    const toolCalls = message.content
      .filter((block) => block.type === "tool_use")
      .map((block) => ({
        id: block.id,
        type: "function" as const,
        function: { name: block.name, arguments: JSON.stringify(block.input) },
      }));
    return [
      {
        role: "assistant",
        content: text === "" ? null : text,
        ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
      },
    ];
  }
  // Tool results first: a `tool` message must follow the assistant turn that called it.
  const results: ChatCompletionMessageParam[] = message.content
    .filter((block) => block.type === "tool_result")
    .map((block) => ({
      role: "tool",
      tool_call_id: block.toolUseId,
      // Chat Completions has no error flag on a tool result: the model reads it in the text.
      content: block.isError === true ? `Error: ${block.content}` : block.content,
    }));
  return text === "" ? results : [...results, { role: "user", content: text }];
}

/**
 * The Chat Completions body of a ModelRequest (without `stream`). OpenAI's own API
 * gets `max_completion_tokens` (its reasoning models refuse `max_tokens`); a
 * `baseUrl` (usually a local server) gets `max_tokens`, which they all accept.
 */
export function openaiParams(
  request: ModelRequest,
  model: string,
  maxTokens: number,
  hosted: boolean,
): ChatCompletionCreateParamsBase {
  const messages: ChatCompletionMessageParam[] = [
    ...(request.system === undefined ? [] : [{ role: "system" as const, content: request.system }]),
    ...request.messages.flatMap(messagesOf),
  ];
  const tools: ChatCompletionTool[] | undefined = request.tools?.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
  const budget = request.maxTokens ?? maxTokens;
  return {
    model,
    messages,
    ...(hosted ? { max_completion_tokens: budget } : { max_tokens: budget }),
    ...(tools !== undefined && tools.length > 0 && { tools }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
  };
}

function stopReason(finish: string | null | undefined, toolCalls: number): ModelStopReason {
  switch (finish) {
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "length":
      return "max_tokens";
    case "stop":
      // Some local servers say "stop" even when they called tools.
      return toolCalls > 0 ? "tool_use" : "end_turn";
    default:
      return "other";
  }
}

function toolUseOf(call: RawToolCall, data: ModelErrorData): ModelToolUse {
  let input: unknown;
  try {
    // Local models send "" for a tool without arguments.
    input = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch (error) {
    throw new ModelError(
      "llm.bad_response",
      `the arguments of tool "${call.name}" are not JSON: ${call.arguments.slice(0, 200)}`,
      { ...data, tool: call.name },
      { cause: error },
    );
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ModelError(
      "llm.bad_response",
      `the arguments of tool "${call.name}" are not a JSON object: ${call.arguments.slice(0, 200)}`,
      { ...data, tool: call.name },
    );
  }
  return { type: "tool_use", id: call.id, name: call.name, input: input as Record<string, unknown> };
}

/** What either path gathered from the API, before it becomes a ModelResponse. */
interface Gathered {
  text: string;
  toolCalls: RawToolCall[];
  finish: string | null | undefined;
  usage: { prompt_tokens?: number; completion_tokens?: number } | null | undefined;
  model: string;
}

function responseOf(gathered: Gathered, data: ModelErrorData): ModelResponse {
  const content: Array<ModelText | ModelToolUse> = [];
  if (gathered.text !== "") content.push({ type: "text", text: gathered.text });
  for (const call of gathered.toolCalls) content.push(toolUseOf(call, data));
  const stop = stopReason(gathered.finish, gathered.toolCalls.length);
  if (content.length === 0 && stop !== "max_tokens" && stop !== "other") {
    throw new ModelError(
      "llm.bad_response",
      `${data.provider} (${data.model}) returned an empty answer`,
      data,
    );
  }
  return {
    content,
    stopReason: stop,
    usage: {
      inputTokens: gathered.usage?.prompt_tokens ?? 0,
      outputTokens: gathered.usage?.completion_tokens ?? 0,
    },
    model: gathered.model,
  };
}

function gatheredOf(completion: ChatCompletion, data: ModelErrorData): Gathered {
  const choice = completion.choices[0];
  if (!choice)
    throw new ModelError("llm.bad_response", `${data.provider} (${data.model}) returned no choice`, data);
  const toolCalls: RawToolCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type === "function") {
      toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments });
    }
  }
  return {
    text: choice.message.content ?? "",
    toolCalls,
    finish: choice.finish_reason,
    usage: completion.usage,
    model: completion.model,
  };
}

/** A ModelClient over Chat Completions (OpenAI, or a compatible server at `baseUrl`); the SDK loads on the first request. */
export function createOpenAIClient(options: HostedClientOptions): ModelClient {
  let loaded: Promise<{ sdk: OpenAIModule; client: OpenAI }> | undefined;
  const load = () => {
    loaded ??= import("openai").then((sdk) => ({
      sdk,
      client: new sdk.OpenAI({
        apiKey: options.apiKey ?? PLACEHOLDER_API_KEY,
        baseURL: options.baseUrl ?? DEFAULT_BASE_URL,
        // Explicit nulls: the SDK would otherwise read OPENAI_ORG_ID / OPENAI_PROJECT_ID.
        organization: null,
        project: null,
        maxRetries: options.maxRetries,
        timeout: options.timeoutMs,
        ...sdkLogging,
      }),
    }));
    return loaded;
  };
  const data: ModelErrorData = { provider: "openai", model: options.model };
  const hosted = options.baseUrl === undefined;

  const streamed = async (
    client: OpenAI,
    params: ChatCompletionCreateParamsBase,
    call: ModelCallOptions,
    onText: (delta: string) => void,
  ): Promise<Gathered> => {
    const stream = await client.chat.completions.create(
      { ...params, stream: true, stream_options: { include_usage: true } },
      call.signal === undefined ? {} : { signal: call.signal },
    );
    const gathered: Gathered = {
      text: "",
      toolCalls: [],
      finish: undefined,
      usage: undefined,
      model: options.model,
    };
    for await (const chunk of stream) {
      if (chunk.model) gathered.model = chunk.model;
      if (chunk.usage) gathered.usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      if (choice.finish_reason) gathered.finish = choice.finish_reason;
      const delta = choice.delta;
      if (delta?.content) {
        gathered.text += delta.content;
        onText(delta.content);
      }
      for (const part of delta?.tool_calls ?? []) {
        let slot = gathered.toolCalls[part.index];
        if (!slot) {
          slot = { id: "", name: "", arguments: "" };
          gathered.toolCalls[part.index] = slot;
        }
        if (part.id) slot.id = part.id;
        if (part.function?.name) slot.name += part.function.name;
        if (part.function?.arguments) slot.arguments += part.function.arguments;
      }
    }
    // The SDK ends the iteration quietly when the request is aborted mid-stream.
    if (call.signal?.aborted) throw new ModelError("llm.aborted", "the openai request was aborted", data);
    gathered.toolCalls = gathered.toolCalls.filter((slot) => slot !== undefined);
    return gathered;
  };

  return {
    provider: "openai",
    model: options.model,
    async complete(request: ModelRequest, call: ModelCallOptions = {}): Promise<ModelResponse> {
      const { sdk, client } = await load();
      const params = openaiParams(request, options.model, options.maxTokens, hosted);
      let gathered: Gathered;
      try {
        if (call.onText) gathered = await streamed(client, params, call, call.onText);
        else {
          const completion = await client.chat.completions.create(
            { ...params, stream: false },
            call.signal === undefined ? {} : { signal: call.signal },
          );
          gathered = gatheredOf(completion, data);
        }
      } catch (error) {
        throw fromSdkError(error, sdk as unknown as SdkErrorClasses, data, call.signal);
      }
      return responseOf(gathered, data);
    },
  };
}
