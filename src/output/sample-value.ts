import { estimateTokens } from "./estimate.ts";
import { formatCount } from "./format-number.ts";
import { renderValue } from "./render-value.ts";
import type { Tokenizer } from "./tokenizer.ts";

/** Long strings inside a sampled value keep at least this many characters. */
const MIN_STRING_CHARS = 40;
/** Rough characters per token for a first guess of how long strings may stay. */
const CHARS_PER_TOKEN_GUESS = 3.5;
/** Key that holds the "more keys omitted" marker in a sampled object. */
export const OMITTED_KEYS_KEY = "…";

export interface SampleLimits {
  /** Items kept per array (first ~3/4, last ~1/4) and entries kept per object. */
  items: number;
  /** Characters kept per string (head and tail). */
  stringChars: number;
}

export interface SampleStats {
  arraysCut: number;
  omittedItems: number;
  objectsCut: number;
  omittedKeys: number;
  stringsCut: number;
  /** The longest array in the value, as it was and as shown. */
  largestArray?: { length: number; shown: number };
}

export interface Sample {
  value: unknown;
  text: string;
  tokens: number;
  limits: SampleLimits;
  stats: SampleStats;
}

/**
 * A copy of `value` with long arrays cut to their first and last items, big
 * objects to their first entries, and long strings to head and tail, each cut
 * replaced by a marker saying how much is missing. The result stays valid JSON
 * and cannot be mistaken for the complete value.
 */
export function sampleValue(value: unknown, limits: SampleLimits): { value: unknown; stats: SampleStats } {
  const stats: SampleStats = { arraysCut: 0, omittedItems: 0, objectsCut: 0, omittedKeys: 0, stringsCut: 0 };
  return { value: sample(value, limits, stats), stats };
}

/**
 * The largest sample of `value` whose rendering fits `maxTokens`: first the number
 * of items per container, then the length of strings. The search compares
 * rendered lengths against a characters-per-token ratio calibrated with real
 * counts, so the tokenizer runs a few times per answer rather than per probe.
 * Returns the smallest sample (1 item per container) when nothing fits.
 */
export function sampleToBudget(value: unknown, maxTokens: number, tokenizer: Tokenizer): Sample {
  const shape = measure(value);
  const count = (draft: Draft): Sample => ({
    ...draft,
    tokens: estimateTokens(tokenizer, draft.text).tokens,
  });
  const smallest = count(draftSample(value, { items: 1, stringChars: MIN_STRING_CHARS }));
  if (smallest.tokens > maxTokens) return smallest;
  const probe = count(
    draftSample(value, { items: Math.min(Math.max(1, shape.widest), 8), stringChars: MIN_STRING_CHARS }),
  );
  let charsPerToken = probe.text.length / Math.max(1, probe.tokens);
  let best = probe.tokens <= maxTokens ? probe : smallest;
  for (let round = 0; round < CALIBRATION_ROUNDS; round++) {
    const candidate = count(searchByChars(value, shape, maxTokens, Math.floor(maxTokens * charsPerToken)));
    if (candidate.tokens <= maxTokens && candidate.text.length > best.text.length) best = candidate;
    // Close enough to the budget, or the ratio cannot improve: done.
    if (candidate.tokens <= maxTokens && candidate.tokens >= maxTokens * 0.9) break;
    if (candidate.tokens === 0) break;
    charsPerToken = (candidate.text.length / candidate.tokens) * (candidate.tokens > maxTokens ? 0.97 : 1);
  }
  return best;
}

/** Rounds of search-then-count; the ratio rarely needs more than two. */
const CALIBRATION_ROUNDS = 4;

type Draft = Omit<Sample, "tokens">;

function draftSample(value: unknown, limits: SampleLimits): Draft {
  const sampled = sampleValue(value, limits);
  return { ...sampled, text: renderValue(sampled.value), limits };
}

/** The largest sample whose rendering is at most `maxChars`: items by doubling then bisection, then strings. */
function searchByChars(
  value: unknown,
  shape: { widest: number; longestString: number },
  maxTokens: number,
  maxChars: number,
): Draft {
  const stringCharsFor = (items: number) =>
    Math.min(
      Math.max(shape.longestString, MIN_STRING_CHARS),
      Math.max(MIN_STRING_CHARS, Math.floor((maxTokens * CHARS_PER_TOKEN_GUESS) / Math.max(1, items))),
    );
  const fits = (draft: Draft) => draft.text.length <= maxChars;
  let best = draftSample(value, { items: 1, stringChars: MIN_STRING_CHARS });
  if (!fits(best)) return best;
  // Every item costs at least a token, so no sample shows more than maxTokens items.
  const widestUseful = Math.max(1, Math.min(shape.widest, maxTokens));
  let low = 1;
  let high = widestUseful;
  for (let items = 2; items <= widestUseful; items *= 2) {
    const candidate = draftSample(value, { items, stringChars: stringCharsFor(items) });
    if (!fits(candidate)) {
      high = items - 1;
      break;
    }
    low = items;
    best = candidate;
  }
  while (low < high) {
    const items = Math.ceil((low + high) / 2);
    const candidate = draftSample(value, { items, stringChars: stringCharsFor(items) });
    if (fits(candidate)) {
      low = items;
      best = candidate;
    } else {
      high = items - 1;
    }
  }
  if (best.limits.items !== low) best = draftSample(value, { items: low, stringChars: stringCharsFor(low) });
  if (!fits(best)) best = draftSample(value, { items: low, stringChars: MIN_STRING_CHARS });
  // Then let strings grow into whatever room is left.
  let charsLow = best.limits.stringChars;
  let charsHigh = Math.max(charsLow, shape.longestString);
  while (charsLow < charsHigh) {
    const stringChars = Math.ceil((charsLow + charsHigh) / 2);
    const candidate = draftSample(value, { items: low, stringChars });
    if (fits(candidate)) {
      charsLow = stringChars;
      best = candidate;
    } else {
      charsHigh = stringChars - 1;
    }
  }
  return best;
}

function sample(value: unknown, limits: SampleLimits, stats: SampleStats): unknown {
  if (typeof value === "string") return sampleString(value, limits.stringChars, stats);
  if (Array.isArray(value)) return sampleArray(value, limits, stats);
  if (value !== null && typeof value === "object") return sampleObject(value, limits, stats);
  return value;
}

function sampleArray(items: readonly unknown[], limits: SampleLimits, stats: SampleStats): unknown[] {
  const keep = Math.max(1, limits.items);
  const shown = Math.min(items.length, keep);
  if (!stats.largestArray || items.length > stats.largestArray.length) {
    stats.largestArray = { length: items.length, shown };
  }
  if (items.length <= keep) return items.map((item) => sample(item, limits, stats));
  const tail = Math.floor(keep / 4);
  const head = keep - tail;
  const omitted = items.length - keep;
  stats.arraysCut++;
  stats.omittedItems += omitted;
  const marker = `[… ${formatCount(omitted)} items omitted here: ${formatCount(items.length)} in total, showing the first ${formatCount(head)}${tail > 0 ? ` and the last ${formatCount(tail)}` : ""} …]`;
  return [
    ...items.slice(0, head).map((item) => sample(item, limits, stats)),
    marker,
    ...items.slice(items.length - tail).map((item) => sample(item, limits, stats)),
  ];
}

function sampleObject(value: object, limits: SampleLimits, stats: SampleStats): Record<string, unknown> {
  const entries = Object.entries(value);
  const keep = Math.max(1, limits.items);
  const out: Record<string, unknown> = {};
  for (const [key, child] of entries.slice(0, keep)) out[key] = sample(child, limits, stats);
  if (entries.length > keep) {
    const omitted = entries.length - keep;
    stats.objectsCut++;
    stats.omittedKeys += omitted;
    out[OMITTED_KEYS_KEY] =
      `[… ${formatCount(omitted)} more keys omitted: ${formatCount(entries.length)} in total …]`;
  }
  return out;
}

function sampleString(text: string, maxChars: number, stats: SampleStats): string {
  if (text.length <= maxChars) return text;
  stats.stringsCut++;
  const tailChars = Math.floor(maxChars / 4);
  let headEnd = maxChars - tailChars;
  let tailStart = text.length - tailChars;
  // Never split a surrogate pair.
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  const cut = tailStart - headEnd;
  return `${text.slice(0, headEnd)}[… ${formatCount(cut)} of ${formatCount(text.length)} characters cut here …]${text.slice(tailStart)}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The widest container (items or keys) and the longest string anywhere in `value`. */
function measure(value: unknown): { widest: number; longestString: number } {
  let widest = 0;
  let longestString = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === "string") {
      longestString = Math.max(longestString, current.length);
    } else if (Array.isArray(current)) {
      widest = Math.max(widest, current.length);
      for (const item of current) stack.push(item);
    } else if (current !== null && typeof current === "object") {
      const children = Object.values(current);
      widest = Math.max(widest, children.length);
      for (const child of children) stack.push(child);
    }
  }
  return { widest, longestString };
}
