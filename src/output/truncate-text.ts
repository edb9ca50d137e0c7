import { hiddenChars } from "./bound-value.ts";
import { estimateTokens } from "./estimate.ts";
import { formatCount } from "./format-number.ts";
import type { Tokenizer } from "./tokenizer.ts";

/** Share of the kept text taken from the start; the rest comes from the end. */
export const DEFAULT_HEAD_SHARE = 0.7;
/** Tokens set aside for the cut marker (its longest form is ~35 tokens). */
const MARKER_RESERVE_TOKENS = 48;
const MAX_FIT_ATTEMPTS = 4;

export interface TruncatedText {
  text: string;
  truncated: boolean;
  tokens: number;
  /** Tokens of the input (sampled estimate when it was very long). */
  originalTokens: number;
}

/**
 * Keeps the head and the tail of `text` within `maxTokens`, with a marker where
 * the middle was cut that says how much: characters, tokens and lines. Cuts fall
 * on line breaks (or spaces) when one is near, never inside a surrogate pair.
 */
export function truncateText(
  text: string,
  maxTokens: number,
  tokenizer: Tokenizer,
  headShare = DEFAULT_HEAD_SHARE,
): TruncatedText {
  const original = estimateTokens(tokenizer, text);
  if (original.tokens <= maxTokens && (original.exact || tokenizer.count(text) <= maxTokens)) {
    return { text, truncated: false, tokens: original.tokens, originalTokens: original.tokens };
  }
  const charsPerToken = text.length / Math.max(1, original.tokens);
  let content = maxTokens - MARKER_RESERVE_TOKENS;
  for (let attempt = 0; attempt < MAX_FIT_ATTEMPTS && content > 0; attempt++) {
    const headBudget = Math.floor(content * headShare);
    const head = fitPrefix(text, headBudget, charsPerToken, tokenizer);
    const rest = text.slice(head.length);
    const tail = fitSuffix(rest, content - headBudget, charsPerToken, tokenizer);
    const cutChars = text.length - head.length - tail.length;
    const kept = tokenizer.count(head) + tokenizer.count(tail);
    const marker = cutMarker(text, head.length, cutChars, Math.max(1, original.tokens - kept));
    const out = `${head}${head.endsWith("\n") || head === "" ? "" : "\n"}${marker}\n${tail}`;
    const tokens = tokenizer.count(out);
    if (tokens <= maxTokens) {
      return { text: out, truncated: true, tokens, originalTokens: original.tokens };
    }
    content -= tokens - maxTokens + 4;
  }
  // A budget too small for any content: the marker alone, or as much of it as fits.
  const marker = cutMarker(text, 0, text.length, original.tokens);
  const fallback = cutToTokens(marker, maxTokens, tokenizer);
  return {
    text: fallback,
    truncated: true,
    tokens: tokenizer.count(fallback),
    originalTokens: original.tokens,
  };
}

/** The longest prefix of `text` within `maxTokens`, with no marker: the last resort for tiny budgets. */
export function cutToTokens(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  if (maxTokens <= 0) return "";
  return fitPrefix(text, maxTokens, text.length / Math.max(1, tokenizer.count(text)), tokenizer, false);
}

function cutMarker(text: string, cutStart: number, cutChars: number, cutTokens: number): string {
  // An earlier cut inside this one (a part cut to its hard cap first): count from the original.
  const hidden = hiddenChars(text, cutStart, cutStart + cutChars);
  if (hidden > 0) {
    return `[… ${formatCount(cutChars + hidden)} of ${formatCount(text.length + hidden)} characters cut here (~${formatCount(cutTokens)}+ tokens) …]`;
  }
  const totalLines = lineAt(text, Math.max(0, text.length - 1));
  let lines = "";
  if (totalLines > 1 && cutChars > 0) {
    const first = lineAt(text, cutStart);
    const last = lineAt(text, cutStart + cutChars - 1);
    lines =
      first === last
        ? `, in line ${formatCount(first)}`
        : `, lines ${formatCount(first)}–${formatCount(last)}`;
    lines += ` of ${formatCount(totalLines)}`;
  }
  return `[… ${formatCount(cutChars)} of ${formatCount(text.length)} characters cut here (~${formatCount(cutTokens)} tokens${lines}) …]`;
}

/** 1-based line number of the character at `position`. */
function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < position; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function fitPrefix(
  text: string,
  budget: number,
  charsPerToken: number,
  tokenizer: Tokenizer,
  snap = true,
): string {
  if (budget <= 0) return "";
  let length = Math.min(text.length, Math.ceil(budget * charsPerToken * 1.1));
  for (let attempt = 0; attempt < 8 && length > 0; attempt++) {
    const tokens = tokenizer.count(text.slice(0, length));
    if (tokens <= budget) break;
    length = Math.floor((length * budget) / tokens) - (attempt > 2 ? attempt : 0);
  }
  length = Math.max(0, length);
  if (isHighSurrogate(text.charCodeAt(length - 1))) length--;
  if (snap) length = snapBack(text, length);
  return text.slice(0, length);
}

function fitSuffix(text: string, budget: number, charsPerToken: number, tokenizer: Tokenizer): string {
  if (budget <= 0) return "";
  let length = Math.min(text.length, Math.ceil(budget * charsPerToken * 1.1));
  for (let attempt = 0; attempt < 8 && length > 0; attempt++) {
    const tokens = tokenizer.count(text.slice(text.length - length));
    if (tokens <= budget) break;
    length = Math.floor((length * budget) / tokens) - (attempt > 2 ? attempt : 0);
  }
  length = Math.max(0, length);
  let start = text.length - length;
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  start = snapForward(text, start);
  return text.slice(start);
}

/** Moves a cut back to just after a line break (or space) in the last fifth of the prefix. */
function snapBack(text: string, length: number): number {
  if (length >= text.length) return length;
  const floor = Math.floor(length * 0.8);
  const newline = text.lastIndexOf("\n", length - 1);
  if (newline >= floor) return newline + 1;
  const space = text.lastIndexOf(" ", length - 1);
  return space >= floor ? space + 1 : length;
}

/** Moves the start of a suffix forward to just after a line break (or space) in its first fifth. */
function snapForward(text: string, start: number): number {
  if (start <= 0) return 0;
  const ceiling = start + Math.floor((text.length - start) * 0.2);
  const newline = text.indexOf("\n", start);
  if (newline !== -1 && newline < ceiling) return newline + 1;
  const space = text.indexOf(" ", start);
  return space !== -1 && space < ceiling ? space + 1 : start;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
