import type { LogEntry } from "../sandbox/types.ts";
import { estimateTokens } from "./estimate.ts";
import { fitLogs } from "./fit-logs.ts";
import { formatCount } from "./format-number.ts";
import type { MediaBlock } from "./media.ts";
import { type BudgetStrategy, type ReductionStrategy, reduceResult } from "./reduce-result.ts";
import { renderValue } from "./render-value.ts";
import type { Tokenizer } from "./tokenizer.ts";
import { cutToTokens, truncateText } from "./truncate-text.ts";

/** Relative claim of each section on a tight budget (weighted max-min fairness). */
const WEIGHTS = { logs: 1, error: 1, result: 3 } as const;
/** Tokens set aside for the section headers and the reduction note. */
const NOTE_RESERVE_TOKENS = 140;
const MAX_FIT_ATTEMPTS = 6;
/** Parts longer than this are sized by a sampled estimate (they are far over any budget anyway). */
const QUICK_EXACT_CHARS = 32_768;
/** Below this, no reduction can show anything useful next to its note: the answer just says what was left out. */
const MIN_REDUCIBLE_TOKENS = NOTE_RESERVE_TOKENS + 40;
export const NO_RESULT_TEXT = "Done (no result returned).";

export interface BudgetOptions {
  maxTokens: number;
  /** How to reduce a result over budget; `auto` (default) picks per value. */
  strategy?: BudgetStrategy | undefined;
  tokenizer: Tokenizer;
  /** The sandbox cut the logs at its byte cap. */
  logsTruncated?: boolean | undefined;
  /** A formatted error to show (and budget) between logs and result. */
  error?: string | undefined;
  /** Tokens kept free for text the caller appends (e.g. "(3 tool calls, 12 ms)"). */
  reserveTokens?: number | undefined;
  /**
   * Sessions: the workspace path where the caller writes the full value when the
   * answer comes back with `reduced` set. The note then points the agent to it.
   */
  fullValuePath?: string | undefined;
  /** Highest `maxTokens` a caller may ask for; named in the note when it is above `maxTokens`. */
  maxTokensLimit?: number | undefined;
}

export interface ResultReduction {
  strategy: ReductionStrategy;
  /** Tokens of the full result as rendered (a sampled estimate for very large values). */
  originalTokens: number;
  /** What was kept, e.g. "sampled: 40 of 10,000 items shown". */
  shown: string;
  /** The sentence the answer carries: that it was reduced, and how to get more. */
  note: string;
  fullValuePath?: string;
}

export interface LogsReduction {
  omittedLines: number;
  originalTokens: number;
}

export interface BudgetedAnswer {
  /** The answer text, at most `maxTokens - reserveTokens` tokens. */
  text: string;
  /** Tokens of the text, plus the estimated tokens of `media` when there is any. */
  tokens: number;
  /** Image and audio blocks the program returned, sent beside the text (see media.ts). */
  media?: MediaBlock[];
  /** The same content for `structuredContent` (merge into it). */
  structured: {
    result?: unknown;
    resultReduced?: ResultReduction;
    logs: LogEntry[];
    logsReduced?: LogsReduction;
  };
  reduced?: ResultReduction;
  logsReduced?: LogsReduction;
}

interface Section {
  name: keyof typeof WEIGHTS;
  need: number;
  budget: number;
}

/**
 * Fits one execution's logs, error and returned value into the token budget.
 * Under budget nothing changes. Over it, each part gets a fair share; logs keep
 * their first and last lines, the value is truncated, sampled or summarized, and
 * the answer says what was cut and how to get the rest. Never over budget.
 */
export function fitToBudget(
  value: unknown,
  logs: readonly LogEntry[],
  options: BudgetOptions,
): BudgetedAnswer {
  const { tokenizer } = options;
  const limit = Math.max(0, options.maxTokens - (options.reserveTokens ?? 0));
  const rendered = value === undefined ? undefined : renderValue(value);
  const fullLogs = fitLogs(logs, Number.POSITIVE_INFINITY, tokenizer, options.logsTruncated ?? false);
  // Parts are sized by sampled estimates; the assembled text is counted exactly only when it may fit.
  const resultTokens =
    rendered === undefined ? 0 : estimateTokens(tokenizer, rendered, QUICK_EXACT_CHARS).tokens;
  const errorTokens =
    options.error === undefined ? 0 : estimateTokens(tokenizer, options.error, QUICK_EXACT_CHARS).tokens;
  const logsTokens = fullLogs.entries.length > 0 ? fullLogs.originalTokens : 0;
  const roughTotal = resultTokens + errorTokens + logsTokens;
  if (roughTotal <= limit * 1.1) {
    const full = assemble(
      logs.length > 0 || options.logsTruncated ? fullLogs.text : undefined,
      options.error,
      rendered,
    );
    const tokens = tokenizer.count(full);
    if (tokens <= limit) {
      return {
        text: full,
        tokens,
        structured: { ...(value !== undefined && { result: value }), logs: fullLogs.entries },
      };
    }
  }
  if (limit < MIN_REDUCIBLE_TOKENS) return tooSmall(value, roughTotal, limit, options);

  const sections: Section[] = [
    { name: "logs", need: logsTokens, budget: 0 },
    { name: "error", need: errorTokens, budget: 0 },
    { name: "result", need: resultTokens, budget: 0 },
  ];
  allocate(sections, Math.max(0, limit - NOTE_RESERVE_TOKENS));

  for (let attempt = 0; attempt < MAX_FIT_ATTEMPTS; attempt++) {
    const answer = build(value, rendered, resultTokens, logs, sections, options);
    const tokens = tokenizer.count(answer.text);
    if (tokens <= limit) return { ...answer, tokens };
    // Token counts are not additive across joins; take the overshoot from the biggest part.
    const biggest = sections.reduce((a, b) => (b.budget > a.budget ? b : a));
    biggest.budget = Math.max(0, biggest.budget - (tokens - limit) - 8 * (attempt + 1));
  }
  // Budgets too small for headers and a note: the start of the answer, cut to fit.
  const answer = build(value, rendered, resultTokens, logs, sections, options);
  const text = cutToTokens(answer.text, limit, tokenizer);
  return { ...answer, text, tokens: tokenizer.count(text) };
}

/** A budget too small to hold any part of the answer with its note: one line saying so, cut to fit. */
function tooSmall(value: unknown, fullTokens: number, limit: number, options: BudgetOptions): BudgetedAnswer {
  const more =
    options.fullValuePath === undefined
      ? "Return less, or pass a larger maxTokens"
      : `The full value is in the session workspace as \`${options.fullValuePath}\``;
  const note = `[… the whole answer (~${formatCount(fullTokens)} tokens) was left out: it does not fit the ${formatCount(options.maxTokens)}-token output budget. ${more} …]`;
  const text = cutToTokens(note, limit, options.tokenizer);
  const reduced: ResultReduction = {
    strategy: "truncate",
    originalTokens: fullTokens,
    shown: "nothing",
    note,
    ...(options.fullValuePath !== undefined && { fullValuePath: options.fullValuePath }),
  };
  return {
    text,
    tokens: options.tokenizer.count(text),
    structured: { ...(value !== undefined && { result: note }), resultReduced: reduced, logs: [] },
    reduced,
  };
}

/** Weighted max-min fairness: small parts keep everything, big parts share the rest by weight. */
function allocate(sections: Section[], available: number): void {
  let left = available;
  const open = sections.filter((section) => section.need > 0);
  open.sort((a, b) => a.need / WEIGHTS[a.name] - b.need / WEIGHTS[b.name]);
  while (open.length > 0) {
    const totalWeight = open.reduce((sum, section) => sum + WEIGHTS[section.name], 0);
    const section = open.shift() as Section;
    const share = Math.floor((left * WEIGHTS[section.name]) / totalWeight);
    section.budget = Math.min(section.need, share);
    left -= section.budget;
  }
}

function build(
  value: unknown,
  rendered: string | undefined,
  resultTokens: number,
  logs: readonly LogEntry[],
  sections: Section[],
  options: BudgetOptions,
): Omit<BudgetedAnswer, "tokens"> {
  const { tokenizer } = options;
  const budgetOf = (name: Section["name"]) => sections.find((section) => section.name === name)?.budget ?? 0;
  const fittedLogs = fitLogs(logs, budgetOf("logs"), tokenizer, options.logsTruncated ?? false);
  const logsReduced = fittedLogs.reduced
    ? { omittedLines: fittedLogs.omittedLines, originalTokens: fittedLogs.originalTokens }
    : undefined;
  const error =
    options.error === undefined ? undefined : truncateText(options.error, budgetOf("error"), tokenizer).text;

  let resultText = rendered;
  let header = "Result:";
  let structuredResult = value;
  let reduced: ResultReduction | undefined;
  if (rendered !== undefined && resultTokens > budgetOf("result")) {
    const result = reduceResult(
      value,
      rendered,
      resultTokens,
      budgetOf("result"),
      options.strategy ?? "auto",
      tokenizer,
    );
    resultText = result.text;
    header = `Result (${result.shown}):`;
    structuredResult = result.structured;
    reduced = {
      strategy: result.strategy,
      originalTokens: resultTokens,
      shown: result.shown,
      note: reductionNote(result.strategy, resultTokens, options),
      ...(options.fullValuePath !== undefined && { fullValuePath: options.fullValuePath }),
    };
  }
  const hasLogs = logs.length > 0 || options.logsTruncated === true;
  let text = assemble(hasLogs ? fittedLogs.text : undefined, error, resultText, header);
  if (reduced) text += `\n\n${reduced.note}`;
  return {
    text,
    structured: {
      ...(value !== undefined && { result: structuredResult }),
      ...(reduced && { resultReduced: reduced }),
      logs: fittedLogs.entries,
      ...(logsReduced && { logsReduced }),
    },
    ...(reduced && { reduced }),
    ...(logsReduced && { logsReduced }),
  };
}

function assemble(
  logs: string | undefined,
  error: string | undefined,
  result: string | undefined,
  header = "Result:",
): string {
  const parts: string[] = [];
  if (logs !== undefined) parts.push(`Logs:\n${logs}`);
  if (error !== undefined) parts.push(error);
  if (result !== undefined) parts.push(`${header}\n${result}`);
  if (parts.length === 0) parts.push(NO_RESULT_TEXT);
  return parts.join("\n\n");
}

/** Says that the value was reduced, by what, from how much, and how to get the rest. */
export function reductionNote(
  strategy: ReductionStrategy,
  originalTokens: number,
  options: Pick<BudgetOptions, "maxTokens" | "fullValuePath" | "maxTokensLimit">,
): string {
  const head = `Note: the result (~${formatCount(originalTokens)} tokens) was reduced (${strategy}) to fit the ${formatCount(options.maxTokens)}-token output budget; what is shown is not the complete value.`;
  const ways: string[] = [];
  if (options.fullValuePath !== undefined) {
    return `${head} The full value was written to the session workspace as \`${options.fullValuePath}\`: read it from code in the next execution and return only what you need.`;
  }
  ways.push("filter or aggregate in code and return only what you need");
  if (options.maxTokensLimit !== undefined && options.maxTokensLimit > options.maxTokens) {
    ways.push(`pass a larger maxTokens (up to ${formatCount(options.maxTokensLimit)})`);
  }
  return `${head} To get more: ${ways.join(", or ")}.`;
}
