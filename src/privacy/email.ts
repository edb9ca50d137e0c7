import type { MatchList } from "./match-list.ts";

/**
 * E-mail addresses, as the pattern
 *
 *   (?<![\w.%+-])[A-Za-z0-9_](?:[A-Za-z0-9._%+'-]{0,63}[A-Za-z0-9_%+-])?@
 *   (?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,8}[A-Za-z]{2,24}(?![\w-])
 *
 * finds them (leftmost, non-overlapping), matched by hand from each "@": the
 * regex engine costs a call and a lookbehind per address, which dominates on
 * text made of little else. Each part is bounded, so the scan is linear.
 * `email.test.ts` checks this against the pattern itself on random text.
 */
export function findEmails(text: string, into: MatchList): void {
  let lastEnd = 0;
  // indexOf finds each "@" natively; everything else is a few characters around it.
  for (let at = text.indexOf("@"); at !== -1; at = text.indexOf("@", at + 1)) {
    // The local part ends in [A-Za-z0-9_%+-] (a one-character one is a word character, which is among them).
    if (at - 1 < lastEnd || !isLocalEnd(text.charCodeAt(at - 1))) continue;
    const end = domainEnd(text, at + 1);
    if (end === -1) continue;
    const start = localStart(text, at, lastEnd);
    if (start === -1) continue;
    lastEnd = end;
    // The key is the address in lower case: only an address written otherwise needs its own string.
    into.add(
      "EMAIL",
      start,
      end,
      hasUpperCase(text, start, end) ? text.slice(start, end).toLowerCase() : undefined,
    );
  }
}

/** The local part: 1 + 63 + 1 characters at most. */
const MAX_LOCAL_CHARS = 65;
const MAX_LABELS = 8;
const MAX_LABEL_CHARS = 63;
const MIN_TLD_CHARS = 2;
const MAX_TLD_CHARS = 24;

/**
 * Where the leftmost local part ending just before the "@" at `at` starts, or
 * -1. Local characters are [A-Za-z0-9._%+'-], so the part is the run of them
 * before the "@"; it may start inside the run only after an apostrophe (the
 * lookbehind refuses the other local characters).
 */
function localStart(text: string, at: number, lastEnd: number): number {
  const lowest = Math.max(lastEnd, at - MAX_LOCAL_CHARS);
  let from = at;
  while (from > lowest && isLocalChar(text.charCodeAt(from - 1))) from--;
  for (let start = from; start < at; start++) {
    if (!isWordChar(text.charCodeAt(start))) continue;
    if (start === 0) return start;
    const before = text.charCodeAt(start - 1);
    if (!(isWordChar(before) || before === 46 || before === 37 || before === 43 || before === 45))
      return start;
  }
  return -1;
}

/**
 * The end of `(label\.){1,8}[A-Za-z]{2,24}(?![\w-])` from `from`, or -1.
 * A label runs to the next character outside [A-Za-z0-9-], which must be a
 * dot, so the labels are fixed; the engine's backtracking only gives back
 * whole labels, so its match is the top-level domain after the most labels:
 * the last one found going forward.
 */
function domainEnd(text: string, from: number): number {
  let best = -1;
  let at = from;
  for (let labels = 0; labels < MAX_LABELS; labels++) {
    const end = labelEnd(text, at);
    if (end === -1) break;
    const tld = tldEnd(text, end + 1);
    if (tld !== -1) best = tld;
    at = end + 1;
  }
  return best;
}

/** Where the label at `from` ends (at its dot), or -1: 1–63 of [A-Za-z0-9-], neither end a hyphen. */
function labelEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && at - from <= MAX_LABEL_CHARS && isLabelChar(text.charCodeAt(at))) at++;
  const length = at - from;
  if (length === 0 || length > MAX_LABEL_CHARS || text.charCodeAt(at) !== 46) return -1;
  if (text.charCodeAt(from) === 45 || text.charCodeAt(at - 1) === 45) return -1;
  return at;
}

/** Where a top-level domain of 2–24 letters at `from` ends, not followed by [\w-]; or -1. */
function tldEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && at - from <= MAX_TLD_CHARS && isLetter(text.charCodeAt(at))) at++;
  const length = at - from;
  if (length < MIN_TLD_CHARS || length > MAX_TLD_CHARS) return -1;
  const after = text.charCodeAt(at);
  return isWordChar(after) || after === 45 ? -1 : at;
}

function hasUpperCase(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 65 && code <= 90) return true;
  }
  return false;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** `[A-Za-z0-9-]` */
function isLabelChar(code: number): boolean {
  return isLetter(code) || (code >= 48 && code <= 57) || code === 45;
}

/** `[A-Za-z0-9._%+'-]` */
function isLocalChar(code: number): boolean {
  return isWordChar(code) || code === 46 || code === 37 || code === 43 || code === 39 || code === 45;
}

/** `[A-Za-z0-9_%+-]`: how a local part of two or more characters ends. */
function isLocalEnd(code: number): boolean {
  return isWordChar(code) || code === 37 || code === 43 || code === 45;
}

/** `\w` of a regex without the u flag: [A-Za-z0-9_]. */
function isWordChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}
