import type { ToolDefinition } from "../catalog/types.ts";
import { SerializedValue } from "../sandbox/shared/serialized-value.ts";
import { countTokens } from "./estimate.ts";
import { extractMedia } from "./media.ts";
import { TokenSample } from "./token-sample.ts";
import type { Tokenizer } from "./tokenizer.ts";

/**
 * One execution's tool calls as the accounting middleware saw them: sizes and
 * samples, never the results themselves (an execution of thousands of calls
 * would keep every result alive until it ends).
 */
export class CallLedger {
  /** Definitions of the distinct tools called. */
  readonly tools = new Set<ToolDefinition>();
  /** Each call's arguments as compact JSON. */
  readonly args = new TokenSample();
  /** Each result as the sandbox received it (after PII tokenization), or the error message. */
  readonly results = new TokenSample();
  /** Images and audio in results, at their cost as content blocks. */
  mediaTokens = 0;

  /** `result` is what the middleware chain returned: usually a SerializedValue. */
  addResult(result: unknown): void {
    const value = result instanceof SerializedValue ? result.value : result;
    if (typeof value === "string") {
      this.results.add(value);
      return;
    }
    const json = result instanceof SerializedValue ? result.json : JSON.stringify(value);
    // Only a value with a media block's field pays for the walk that finds its base64.
    if (json?.includes('"mimeType"')) {
      this.mediaTokens += mediaTokens(value);
      this.results.add(renderForCount(value));
    } else {
      this.results.add(json ?? "null");
    }
  }

  addError(message: string): void {
    this.results.add(message);
  }
}

/** `structuredContent.tokens` of an execute_code answer. */
export interface ExecutionTokens {
  tokenizer: string;
  /** Tokens of the answer text sent back to the model (exact). */
  returned: number;
  /** Tokens of the program the model sent (exact; what code mode costs besides the answer). */
  code: number;
  /**
   * Tokens of every tool result (and tool error) that entered the sandbox: exact for
   * small executions, else estimated from a sample (the model never reads them).
   */
  toolResults: number;
  /** Tool-result tokens that did not come back: `toolResults - returned`, at least 0. */
  keptInSandbox: number;
  /**
   * What direct tool calling would have put in the context: the JSON definitions
   * of the distinct tools used (exact), plus every call's arguments and full result (as above).
   */
  directEstimate: number;
  /** The definitions part of `directEstimate`. */
  definitions: number;
}

export interface AccountExecutionInput {
  ledger: CallLedger;
  /** Tokens of the answer text (`BudgetedAnswer.tokens` plus any footer). */
  returnedTokens: number;
  /** The program as the model sent it. */
  code?: string | undefined;
  tokenizer: Tokenizer;
}

/** Token accounting of one execution: what came back, what stayed, what direct calling would have cost. */
export function accountExecution(input: AccountExecutionInput): ExecutionTokens {
  const { tokenizer, ledger } = input;
  const toolResults = ledger.results.tokens(tokenizer) + ledger.mediaTokens;
  let definitions = 0;
  for (const definition of ledger.tools) definitions += toolDefinitionTokens(definition, tokenizer);
  return {
    tokenizer: tokenizer.name,
    returned: input.returnedTokens,
    code: input.code === undefined ? 0 : countTokens(tokenizer, input.code),
    toolResults,
    keptInSandbox: Math.max(0, toolResults - input.returnedTokens),
    directEstimate: definitions + ledger.args.tokens(tokenizer) + toolResults,
    definitions,
  };
}

const definitionCache = new Map<string, WeakMap<ToolDefinition, number>>();

/**
 * Tokens of one tool definition as an MCP client loads it into the model's
 * context: the `tools/list` entry as compact JSON. This reproduces the fixture's
 * per-server counts exactly (e.g. 2,791 for server-everything's 19 tools).
 * Cached per definition object and tokenizer.
 */
export function toolDefinitionTokens(definition: ToolDefinition, tokenizer: Tokenizer): number {
  let cache = definitionCache.get(tokenizer.name);
  if (!cache) {
    cache = new WeakMap();
    definitionCache.set(tokenizer.name, cache);
  }
  const cached = cache.get(definition);
  if (cached !== undefined) return cached;
  const tokens = tokenizer.count(JSON.stringify(definition));
  cache.set(definition, tokens);
  return tokens;
}

/** Tokens of a whole `tools/list` answer (every definition), as a direct client would load it. */
export function toolListTokens(definitions: readonly ToolDefinition[], tokenizer: Tokenizer): number {
  return tokenizer.count(JSON.stringify(definitions));
}

/** Images and audio in a tool result, at what they cost a model as content blocks (see media-size.ts). */
function mediaTokens(value: unknown): number {
  return extractMedia(value, { maxTokens: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY })
    .tokens;
}

/**
 * A value as text for counting: strings as they are, the rest as compact JSON
 * (so the direct estimate is conservative when servers pretty-print). Base64
 * payloads of images and audio are not text a model reads; they count as a
 * stub here, and at their token cost as media.
 */
function renderForCount(value: unknown): string {
  if (typeof value === "string") return value;
  return (
    JSON.stringify(value, function (this: unknown, key, child: unknown) {
      if (key === "data" && typeof child === "string" && isMediaPart(this))
        return `<${child.length} base64 chars>`;
      return child;
    }) ?? "null"
  );
}

function isMediaPart(holder: unknown): boolean {
  if (holder === null || typeof holder !== "object") return false;
  const type = (holder as { type?: unknown }).type;
  return type === "image" || type === "audio";
}
