import type {
  ModelCallOptions,
  ModelClient,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelText,
  ModelToolResult,
  ModelToolUse,
  ModelUsage,
} from "../../src/llm/types.ts";

// A model for tests, until the loopback stubs of the Anthropic and OpenAI APIs
// (src/llm/) can stand in: a script answers each request. Swap it for a
// stub-backed ModelClient to run the same tests over the real wire formats.

/** Answers request number `turn` (from 1); may wait, throw, or read the request. */
export type ModelScript = (
  request: ModelRequest,
  turn: number,
  options: ModelCallOptions,
) => ModelResponse | Promise<ModelResponse>;

export class ScriptedModel implements ModelClient {
  readonly provider: ModelProvider = "anthropic";
  readonly model = "scripted-model";
  /** Every request, as sent (a copy: the loop keeps appending to its messages). */
  readonly requests: ModelRequest[] = [];
  readonly #script: ModelScript;

  constructor(script: ModelScript) {
    this.#script = script;
  }

  async complete(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
    this.requests.push(structuredClone(request));
    options.signal?.throwIfAborted();
    // The signal aborts a request in flight, as a real client's fetch would.
    return await abortable(
      Promise.resolve(this.#script(request, this.requests.length, options)),
      options.signal,
    );
  }
}

/** A script that plays `turns` in order (a function entry reads the request), and fails past its end. */
export function turnsScript(
  ...turns: Array<ModelResponse | ((request: ModelRequest) => ModelResponse)>
): ModelScript {
  return (request, turn) => {
    const next = turns[turn - 1];
    if (next === undefined) throw new Error(`the script has ${turns.length} turns; turn ${turn} was asked`);
    return typeof next === "function" ? next(request) : next;
  };
}

let ids = 0;

export function toolUse(name: string, input: Record<string, unknown>): ModelToolUse {
  ids++;
  return { type: "tool_use", id: `toolu_${ids}`, name, input };
}

export function text(value: string): ModelText {
  return { type: "text", text: value };
}

/** A turn: tool uses make it a `tool_use` stop, text alone an `end_turn`. */
export function reply(
  content: Array<ModelText | ModelToolUse>,
  usage: ModelUsage = { inputTokens: 100, outputTokens: 10 },
): ModelResponse {
  const stopReason = content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
  return { content, stopReason, usage, model: "scripted-model" };
}

/** The tool results of the last user turn of a request. */
export function lastToolResults(request: ModelRequest): ModelToolResult[] {
  const last = request.messages.at(-1);
  return (last?.content ?? []).filter((block): block is ModelToolResult => block.type === "tool_result");
}

/** A promise that never settles unless `signal` aborts it: a model that is still thinking. */
export function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return Promise.race([promise, untilAborted(signal)]);
}
