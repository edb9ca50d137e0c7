// The output module's API: token counting, the answer budget, token accounting.
export {
  type AccountExecutionInput,
  accountExecution,
  CallLedger,
  type ExecutionTokens,
  toolDefinitionTokens,
  toolListTokens,
} from "./accounting.ts";
export { accountingMiddleware } from "./accounting-middleware.ts";
export {
  type BudgetedAnswer,
  type BudgetOptions,
  fitToBudget,
  type LogsReduction,
  NO_RESULT_TEXT,
  type ResultReduction,
  reductionNote,
} from "./budget.ts";
export { countTokens, DEFAULT_EXACT_UP_TO_CHARS, estimateTokens, type TokenEstimate } from "./estimate.ts";
export type { BudgetStrategy, ReductionStrategy } from "./reduce-result.ts";
export { renderValue } from "./render-value.ts";
export { formatTokenTotals, SessionTokenTotals, type TokenTotals } from "./session-totals.ts";
export {
  claudeLegacyTokenizer,
  createTokenizer,
  DEFAULT_TOKENIZER,
  o200kTokenizer,
  type Tokenizer,
  type TokenizerName,
} from "./tokenizer.ts";
export { cutToTokens, type TruncatedText, truncateText } from "./truncate-text.ts";
