import type { BudgetedAnswer } from "../output/budget.ts";
import { fitToBudget } from "../output/budget.ts";
import type { BudgetStrategy } from "../output/reduce-result.ts";
import type { Tokenizer } from "../output/tokenizer.ts";
import type { PiiVault } from "../privacy/vault.ts";
import type { ExecutionError } from "../sandbox/types.ts";
import type { ExecuteResponse } from "./types.ts";

/** Tokens kept for the footer the front end appends ("(3 tool calls, 12 ms)"). */
export const FOOTER_RESERVE_TOKENS = 20;

export interface AnswerOptions {
  maxTokens: number;
  maxTokensLimit: number;
  strategy: BudgetStrategy;
  tokenizer: Tokenizer;
  /** Replaces personal data in what leaves the gateway, when privacy is on. */
  vault?: PiiVault | undefined;
  /** Writes the full value where the next execution can read it; returns the path, or undefined if it could not. */
  saveFullValue?: ((value: unknown) => string | undefined) | undefined;
}

/** One line (plus stack) for an execution error, as the model reads it. */
export function formatError(error: ExecutionError): string {
  const where =
    error.line === undefined ? "" : ` at line ${error.line}${error.column ? `:${error.column}` : ""}`;
  return `${error.name} (${error.kind})${where}: ${error.message}${error.stack ? `\n${error.stack}` : ""}`;
}

/**
 * Turns a finished execution into what the model receives: personal data
 * tokenized, then fitted to the token budget. Over budget, the full value is
 * saved for the next execution when possible, and the answer says where.
 */
export async function shapeAnswer(
  response: ExecuteResponse,
  options: AnswerOptions,
): Promise<ExecuteResponse & { answer: BudgetedAnswer }> {
  const private_ = options.vault ? await tokenizeResponse(response, options.vault) : response;
  const budget = (fullValuePath: string | undefined) =>
    fitToBudget(private_.result, private_.logs, {
      maxTokens: options.maxTokens,
      maxTokensLimit: options.maxTokensLimit,
      strategy: options.strategy,
      tokenizer: options.tokenizer,
      logsTruncated: private_.logsTruncated,
      ...(private_.error && { error: formatError(private_.error) }),
      reserveTokens: FOOTER_RESERVE_TOKENS,
      fullValuePath,
    });
  let answer = budget(undefined);
  if (answer.reduced && options.saveFullValue && private_.result !== undefined) {
    const path = options.saveFullValue(private_.result);
    if (path) answer = budget(path);
  }
  return { ...private_, answer };
}

/** Scans in chunks with pauses (logs, result, error in that order), so other sessions are served meanwhile. */
async function tokenizeResponse(response: ExecuteResponse, vault: PiiVault): Promise<ExecuteResponse> {
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
