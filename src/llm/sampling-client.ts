import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  SamplingMessage,
  SamplingMessageContentBlock,
} from "@modelcontextprotocol/server";
import { ModelError, type ModelErrorData } from "./errors.ts";
import type {
  ModelCallOptions,
  ModelClient,
  ModelContent,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  ModelText,
  ModelToolUse,
} from "./types.ts";

/**
 * Sends one `sampling/createMessage` to the connected MCP client, e.g. a wrapper
 * of `connectionOf(server).sampling()` (src/server/client-connection.ts) or of
 * `server.server.createMessage`. Kept a function so this layer needs no server class.
 */
export type SamplingRequester = (
  params: CreateMessageRequest["params"],
  options: { signal?: AbortSignal | undefined },
) => Promise<CreateMessageResult | CreateMessageResultWithTools>;

export interface SamplingClientOptions {
  /** Undefined when the connection cannot send requests to its client (e.g. stateless HTTP). */
  send: SamplingRequester | undefined;
  /** What the client declared: `sampling` at all, `sampling.tools` for tool use (MCP 2025-11-25). */
  capabilities: ClientCapabilities | undefined;
  /** Answer budget of a request that names none (`maxTokens` is required in sampling). */
  maxTokens?: number | undefined;
  /** Sent as `modelPreferences.hints`: the client picks its model, this only suggests one. */
  modelHint?: string | undefined;
}

const DEFAULT_SAMPLING_MAX_TOKENS = 4096;
/** What `model` says before the client has answered: it picks the model. */
export const SAMPLING_MODEL = "client-selected";

function samplingBlock(block: ModelContent): SamplingMessageContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
    case "tool_result":
      return {
        type: "tool_result",
        toolUseId: block.toolUseId,
        content: [{ type: "text", text: block.content }],
        ...(block.isError === true && { isError: true }),
      };
  }
}

function samplingMessage(message: ModelMessage, withTools: boolean): SamplingMessage {
  if (!withTools) {
    // Clients without sampling tools know one content block per message (the 2025-06-18 shape).
    const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("\n\n");
    return { role: message.role, content: { type: "text", text } };
  }
  const blocks = message.content.map(samplingBlock);
  return { role: message.role, content: blocks.length === 1 && blocks[0] ? blocks[0] : blocks };
}

function stopReason(reason: string | undefined, toolUses: number): ModelStopReason {
  switch (reason) {
    case "endTurn":
    case "stopSequence":
      return "end_turn";
    case "toolUse":
      return "tool_use";
    case "maxTokens":
      return "max_tokens";
    case undefined:
      // Optional in the protocol: the answer says what happened.
      return toolUses > 0 ? "tool_use" : "end_turn";
    default:
      return "other";
  }
}

function failure(error: unknown, data: ModelErrorData, signal: AbortSignal | undefined): ModelError {
  if (error instanceof ModelError) return error;
  if (signal?.aborted)
    return new ModelError("llm.aborted", "the sampling request was aborted", data, { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  if ((error as { code?: unknown } | undefined)?.code === "REQUEST_TIMEOUT") {
    return new ModelError(
      "llm.timeout",
      `the client did not answer the sampling request in time: ${message}`,
      data,
      {
        cause: error,
      },
    );
  }
  // The client declined (its user refused) or failed: quoted as it said it.
  return new ModelError("llm.unavailable", `the client's sampling failed: ${message}`, data, {
    cause: error,
  });
}

/**
 * A ModelClient over MCP sampling: the connected client's own model answers. Text
 * only, unless the client declared `sampling.tools`; usage is not reported by the
 * protocol, so it counts zero tokens.
 */
export function createSamplingClient(options: SamplingClientOptions): ModelClient {
  const data: ModelErrorData = { provider: "sampling", model: options.modelHint ?? SAMPLING_MODEL };
  const sampling = options.capabilities?.sampling;
  const toolsDeclared = sampling?.tools !== undefined;

  return {
    provider: "sampling",
    model: options.modelHint ?? SAMPLING_MODEL,
    async complete(request: ModelRequest, call: ModelCallOptions = {}): Promise<ModelResponse> {
      if (sampling === undefined || options.send === undefined) {
        throw new ModelError(
          "llm.sampling_unsupported",
          "no model is configured (toolscript.llm) and the MCP client does not offer sampling",
          data,
        );
      }
      const usesTools =
        (request.tools?.length ?? 0) > 0 ||
        request.messages.some((message) => message.content.some((block) => block.type !== "text"));
      if (usesTools && !toolsDeclared) {
        throw new ModelError(
          "llm.sampling_unsupported",
          "the MCP client's sampling does not support tools (it did not declare sampling.tools); configure toolscript.llm",
          data,
        );
      }
      const params: CreateMessageRequest["params"] = {
        messages: request.messages.map((message) => samplingMessage(message, usesTools)),
        maxTokens: request.maxTokens ?? options.maxTokens ?? DEFAULT_SAMPLING_MAX_TOKENS,
        ...(request.system !== undefined && { systemPrompt: request.system }),
        ...(request.temperature !== undefined && { temperature: request.temperature }),
        ...(options.modelHint !== undefined && {
          modelPreferences: { hints: [{ name: options.modelHint }] },
        }),
        ...(usesTools &&
          request.tools !== undefined && {
            tools: request.tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              inputSchema: { type: "object" as const, ...tool.inputSchema },
            })),
            toolChoice: { mode: "auto" as const },
          }),
      };
      let result: CreateMessageResult | CreateMessageResultWithTools;
      try {
        result = await options.send(params, { signal: call.signal });
      } catch (error) {
        throw failure(error, data, call.signal);
      }
      const blocks = Array.isArray(result.content) ? result.content : [result.content];
      const content: Array<ModelText | ModelToolUse> = [];
      for (const block of blocks) {
        if (block.type === "text") content.push({ type: "text", text: block.text });
        else if (block.type === "tool_use") {
          content.push({ type: "tool_use", id: block.id, name: block.name, input: block.input });
        }
      }
      const toolUses = content.filter((block) => block.type === "tool_use").length;
      if (content.length === 0) {
        throw new ModelError("llm.bad_response", "the client's sampling answer holds no text or tool use", {
          ...data,
          model: result.model,
        });
      }
      const text = content.map((block) => (block.type === "text" ? block.text : "")).join("");
      if (call.onText && text !== "") call.onText(text);
      return {
        content,
        stopReason: stopReason(result.stopReason, toolUses),
        usage: { inputTokens: 0, outputTokens: 0 },
        model: result.model,
      };
    },
  };
}
