import { boundExecution, DEFAULT_EXECUTION_BOUNDS, type ExecutionBounds } from "../output/bound-execution.ts";
import type { BudgetedAnswer } from "../output/budget.ts";
import { fitToBudget } from "../output/budget.ts";
import { extractMedia } from "../output/media.ts";
import type { BudgetStrategy } from "../output/reduce-result.ts";
import type { Tokenizer } from "../output/tokenizer.ts";
import { truncateText } from "../output/truncate-text.ts";
import type { TokenVault } from "../privacy/token-vault.ts";
import type { ExecutionError } from "../sandbox/types.ts";
import type { ExecuteResponse } from "./types.ts";

/** Tokens kept for the footer the front end appends ("(3 tool calls, 12 ms)"). */
export const FOOTER_RESERVE_TOKENS = 20;

export interface AnswerOptions {
  maxTokens: number;
  maxTokensLimit: number;
  strategy: BudgetStrategy;
  tokenizer: Tokenizer;
  /**
   * Replaces personal data in what leaves the gateway, when privacy is on. A
   * shared vault that cannot commit its new tokens rejects: nothing is answered.
   */
  vault?: TokenVault | undefined;
  /** Writes the full value where the next execution can read it; resolves to the path, or undefined if it could not. */
  saveFullValue?: ((value: unknown) => Promise<string | undefined> | string | undefined) | undefined;
  /** Hard caps applied to every part before anything reads it whole. */
  bounds?: ExecutionBounds | undefined;
}

/** Base64 bytes of images and audio one answer may carry: with the text (1 MiB at most), far below a client's 10 MiB. */
export const MAX_MEDIA_BYTES = 4 * 1024 * 1024;
/** Tokens media may never take from the budget: the text around them still needs room. */
const TEXT_RESERVE_TOKENS = 200;

/**
 * Characters per token no answer needs more than to fill its budget (prose is
 * ~4, JSON ~3; only runs of one character go higher): error and log texts are
 * cut to this many characters per budget token before anything counts tokens.
 */
const MAX_CHARS_PER_TOKEN = 8;
const MIN_PART_CHARS = 4096;

/** The hard caps, tightened for error and log texts to what the budget can show. */
function budgetBounds(maxTokens: number): ExecutionBounds {
  const chars = Math.max(MIN_PART_CHARS, maxTokens * MAX_CHARS_PER_TOKEN);
  return {
    ...DEFAULT_EXECUTION_BOUNDS,
    errorChars: Math.min(DEFAULT_EXECUTION_BOUNDS.errorChars, chars),
    logChars: Math.min(DEFAULT_EXECUTION_BOUNDS.logChars, chars),
  };
}

/** Error texts up to this long are kept as they are in the structured copy without counting tokens. */
const SHORT_ERROR_CHARS = 1024;

/** One line (plus stack) for an execution error, as the model reads it. */
export function formatError(error: ExecutionError): string {
  const where =
    error.line === undefined ? "" : ` at line ${error.line}${error.column ? `:${error.column}` : ""}`;
  return `${error.name} (${error.kind})${where}: ${error.message}${error.stack ? `\n${error.stack}` : ""}`;
}

/**
 * Turns a finished execution into what the model receives: every part cut to
 * its hard cap first (by slicing: a 100 MB error costs what a 256 KB one does),
 * personal data tokenized, then fitted to the token budget. Over budget, the
 * full value is saved for the next execution when possible, and the answer says
 * where. The returned error's message and stack are cut to the budget too:
 * they go to the client as structured content.
 */
export async function shapeAnswer(
  response: ExecuteResponse,
  options: AnswerOptions,
): Promise<ExecuteResponse & { answer: BudgetedAnswer }> {
  // Images and audio first: sent as content blocks at their token cost, never cut, PII-scanned or shown as base64.
  const media = extractMedia(response.result, {
    maxTokens: Math.max(0, options.maxTokens - FOOTER_RESERVE_TOKENS - TEXT_RESERVE_TOKENS),
    maxBytes: MAX_MEDIA_BYTES,
  });
  const noteTokens = media.note ? options.tokenizer.count(media.note) + 2 : 0;
  const withoutMedia = media.value === response.result ? response : { ...response, result: media.value };
  const bounded = boundExecution(withoutMedia, options.bounds ?? budgetBounds(options.maxTokens));
  const vault = options.vault;
  const private_ = vault
    ? await (vault.tokenizeTogether
        ? vault.tokenizeTogether((inner) => tokenizeResponse(bounded.result, inner))
        : tokenizeResponse(bounded.result, vault))
    : bounded.result;
  const budget = (fullValuePath: string | undefined) =>
    fitToBudget(private_.result, private_.logs, {
      maxTokens: options.maxTokens - media.tokens - noteTokens,
      maxTokensLimit: options.maxTokensLimit,
      strategy: options.strategy,
      tokenizer: options.tokenizer,
      logsTruncated: private_.logsTruncated,
      ...(private_.error && { error: formatError(private_.error) }),
      reserveTokens: FOOTER_RESERVE_TOKENS,
      fullValuePath,
    });
  let answer = budget(undefined);
  // A value cut to its hard cap is not the full value: it is not saved as one.
  if (answer.reduced && options.saveFullValue && private_.result !== undefined && !bounded.resultCut) {
    const path = await options.saveFullValue(private_.result);
    if (path) answer = budget(path);
  }
  if (media.blocks.length > 0 || media.note) {
    answer = {
      ...answer,
      ...(media.note && { text: `${answer.text}\n\n${media.note}` }),
      tokens: answer.tokens + media.tokens,
      media: media.blocks,
    };
  }
  const error = private_.error && fitErrorText(private_.error, options);
  return { ...private_, ...(error && { error }), answer };
}

/** The error's message and stack within the token budget, for the structured copy of the answer. */
function fitErrorText(error: ExecutionError, options: AnswerOptions): ExecutionError {
  const fit = (text: string) =>
    text.length <= SHORT_ERROR_CHARS
      ? text
      : truncateText(text, Math.max(1, options.maxTokens - FOOTER_RESERVE_TOKENS), options.tokenizer).text;
  const message = fit(error.message);
  const stack = error.stack === undefined ? undefined : fit(error.stack);
  if (message === error.message && stack === error.stack) return error;
  return { ...error, message, ...(stack !== undefined && { stack }) };
}

/** Scans in chunks with pauses (logs, result, error in that order), so other sessions are served meanwhile. */
async function tokenizeResponse(response: ExecuteResponse, vault: TokenVault): Promise<ExecuteResponse> {
  const { result, logs, error, ...rest } = response;
  const tokenizedLogs: typeof logs = [];
  for (const entry of logs)
    tokenizedLogs.push({ ...entry, message: await vault.tokenizeAsync(entry.message) });
  const tokenizedResult = result === undefined ? undefined : await vault.tokenizeValueAsync(result);
  const tokenizedError =
    error === undefined
      ? undefined
      : {
          ...error,
          message: await vault.tokenizeAsync(error.message),
          ...(error.stack !== undefined && { stack: await vault.tokenizeAsync(error.stack) }),
        };
  return {
    ...rest,
    logs: tokenizedLogs,
    ...(result !== undefined && { result: tokenizedResult }),
    ...(tokenizedError !== undefined && { error: tokenizedError }),
  };
}
