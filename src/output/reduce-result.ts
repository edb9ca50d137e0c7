import { formatCount } from "./format-number.ts";
import { renderValue } from "./render-value.ts";
import { sampleToBudget } from "./sample-value.ts";
import { summarizeValue } from "./summarize-value.ts";
import type { Tokenizer } from "./tokenizer.ts";
import { truncateText } from "./truncate-text.ts";

export type BudgetStrategy = "auto" | "truncate" | "sample" | "summarize";
export type ReductionStrategy = Exclude<BudgetStrategy, "auto">;

/** `auto` samples an array only when at least this many of its items fit; else it summarizes. */
const MIN_USEFUL_SAMPLE_ITEMS = 3;

export interface ReducedResult {
  strategy: ReductionStrategy;
  /** What the model sees of the value. */
  text: string;
  tokens: number;
  /** The same content for `structuredContent`: never the bare cut value without a marker. */
  structured: unknown;
  /** What was kept, for the answer's header, e.g. "sampled: 40 of 10,000 items shown". */
  shown: string;
}

/** Reduces a value whose rendering is over `maxTokens` with `strategy` (`auto` picks one). */
export function reduceResult(
  value: unknown,
  rendered: string,
  originalTokens: number,
  maxTokens: number,
  strategy: BudgetStrategy,
  tokenizer: Tokenizer,
): ReducedResult {
  const chosen = strategy === "auto" ? undefined : strategy;
  if (chosen === "truncate" || typeof value === "string" || (chosen === undefined && !isContainer(value))) {
    return truncated(rendered, originalTokens, maxTokens, tokenizer);
  }
  if (chosen === "summarize") return summarized(value, maxTokens, tokenizer);

  const sample = sampleToBudget(value, maxTokens, tokenizer);
  const largest = sample.stats.largestArray;
  const useful = !largest || largest.shown >= Math.min(MIN_USEFUL_SAMPLE_ITEMS, largest.length);
  if (chosen === undefined && (!useful || sample.tokens > maxTokens))
    return summarized(value, maxTokens, tokenizer);
  if (sample.tokens > maxTokens) {
    // Even one item per container is too big: cut the sample's text, still flagged as a sample.
    const cut = truncateText(sample.text, maxTokens, tokenizer);
    return {
      strategy: "sample",
      text: cut.text,
      tokens: cut.tokens,
      structured: cut.text,
      shown: sampleShown(sample.stats, true),
    };
  }
  return {
    strategy: "sample",
    text: sample.text,
    tokens: sample.tokens,
    structured: sample.value,
    shown: sampleShown(sample.stats, false),
  };
}

function isContainer(value: unknown): boolean {
  return value !== null && typeof value === "object";
}

function truncated(
  rendered: string,
  originalTokens: number,
  maxTokens: number,
  tokenizer: Tokenizer,
): ReducedResult {
  const cut = truncateText(rendered, maxTokens, tokenizer);
  const kept = Math.max(0, cut.tokens);
  return {
    strategy: "truncate",
    text: cut.text,
    tokens: cut.tokens,
    structured: cut.text,
    shown: `truncated: head and tail shown, ~${formatCount(kept)} of ~${formatCount(originalTokens)} tokens`,
  };
}

function summarized(value: unknown, maxTokens: number, tokenizer: Tokenizer): ReducedResult {
  const summary = summarizeValue(value);
  const text = renderValue(summary);
  const cut = truncateText(text, maxTokens, tokenizer);
  return {
    strategy: "summarize",
    text: cut.text,
    tokens: cut.tokens,
    structured: cut.truncated ? cut.text : summary,
    shown: `summarized: the shape of the data (types, counts, ranges), not the data${cut.truncated ? "; the summary itself was truncated" : ""}`,
  };
}

function sampleShown(stats: ReturnType<typeof sampleToBudget>["stats"], cut: boolean): string {
  const parts: string[] = [];
  const largest = stats.largestArray;
  if (largest && largest.shown < largest.length) {
    parts.push(`${formatCount(largest.shown)} of ${formatCount(largest.length)} items shown`);
    if (stats.arraysCut > 1) parts.push(`${formatCount(stats.arraysCut)} arrays cut`);
  }
  if (stats.objectsCut > 0) parts.push(`${plural(stats.omittedKeys, "object key", "object keys")} omitted`);
  if (stats.stringsCut > 0) parts.push(`${plural(stats.stringsCut, "long string", "long strings")} cut`);
  if (cut) parts.push("the sample itself was truncated");
  return `sampled: ${parts.length > 0 ? parts.join(", ") : "nothing omitted"}`;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
