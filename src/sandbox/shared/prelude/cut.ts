/**
 * Huge values are cut here, before they are copied out of the sandbox.
 * No loop over a value's characters: JIT-compiling one in an isolate at its
 * heap limit can end the host process. Only captured intrinsics (intrinsics.ts).
 */
import { MAX_REPORT_CHARS } from "./constants.ts";
import { sliceString, testOf } from "./intrinsics.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const ASCII_ONLY = /^[\u0000-\u007f]*$/;

function cutNote(total: number, kept: number): string {
  return "… (" + (total - kept) + " more characters)";
}

/** The start of text in at most maxBytes UTF-8 bytes, note included, with how much was left out. */
export function cutToBytes(text: string, maxBytes: number): string {
  const total = text.length;
  const budget = maxBytes - 40;
  // No room for a note: the log collector cuts this short start and marks the cut.
  if (budget <= 0) return sliceString(text, 0, maxBytes > 0 ? maxBytes + 1 : 1);
  let kept = sliceString(text, 0, budget);
  // Characters past ASCII take up to 3 bytes each (a surrogate pair 4 for 2).
  if (!testOf(ASCII_ONLY, kept)) kept = sliceString(text, 0, (budget / 3) | 0);
  return kept.length >= total ? text : kept + cutNote(total, kept.length);
}

/** A string for a report: at most MAX_REPORT_CHARS characters, noting how long it was. */
export function capReport(text: string): string {
  return text.length <= MAX_REPORT_CHARS
    ? text
    : sliceString(text, 0, MAX_REPORT_CHARS) + cutNote(text.length, MAX_REPORT_CHARS);
}
