import { formatCount } from "./format-number.ts";
import { OMITTED_KEYS_KEY } from "./sample-value.ts";

/** Share of a cut text kept from its start; the rest comes from its end (as in truncateText). */
const HEAD_SHARE = 0.7;
/** Containers nested deeper than this are replaced by a marker (no walk recurses without bound). */
const MAX_DEPTH = 64;

/** Texts longer than this were never cut before (cuts keep far less): they are not searched for earlier markers. */
const MARKED_TEXT_MAX_CHARS = 2 * 1024 * 1024;
const CUT_MARKER = /\n?\[… ([\d,]+) of ([\d,]+) characters cut here[^\]\n]*…\]\n?/g;

/**
 * `text` cut to at most `maxChars` characters plus a marker: head and tail kept,
 * the middle replaced by a note saying how much was cut. Only slices: it never
 * reads the whole text, so it is the first thing done to a part of unknown size.
 * Cutting a text cut before still counts from the original length.
 */
export function cutMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let headEnd = Math.floor(maxChars * HEAD_SHARE);
  let tailStart = text.length - (maxChars - headEnd);
  // Never split a surrogate pair.
  if (isHigh(text.charCodeAt(headEnd - 1))) headEnd--;
  if (isLow(text.charCodeAt(tailStart))) tailStart++;
  const hidden = hiddenChars(text, headEnd, tailStart);
  const cut = tailStart - headEnd + hidden;
  return `${text.slice(0, headEnd)}\n[… ${formatCount(cut)} of ${formatCount(text.length + hidden)} characters cut here …]\n${text.slice(tailStart)}`;
}

/**
 * Characters that earlier cuts removed from `text[from, to)`, as their markers
 * say: a second cut over the first one's marker reports the original size.
 */
export function hiddenChars(text: string, from: number, to: number): number {
  if (text.length > MARKED_TEXT_MAX_CHARS || to <= from) return 0;
  let hidden = 0;
  for (const match of text.slice(from, to).matchAll(CUT_MARKER)) {
    // The marker (and its line breaks) stands in for the characters it counts.
    hidden += Number((match[1] ?? "0").replaceAll(",", "")) - match[0].length;
  }
  return Math.max(0, hidden);
}

/**
 * Bytes of `value` as JSON, walking at most until `limit` is passed: a 100 MB
 * value costs as much as a `limit`-sized one. `over` is true when the value is
 * larger than `limit` (then `bytes` is only a lower bound).
 */
export function jsonBytesUpTo(value: unknown, limit: number): { bytes: number; over: boolean } {
  let bytes = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop() as { value: unknown; depth: number };
    bytes += scalarBytes(item, limit - bytes);
    if (bytes > limit) return { bytes, over: true };
    if (item === null || typeof item !== "object" || depth > MAX_DEPTH) continue;
    bytes += 2; // brackets
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length && bytes <= limit; i++) {
        if (i > 0) bytes += 1; // comma
        stack.push({ value: item[i] ?? null, depth: depth + 1 });
      }
    } else {
      let first = true;
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        const child = (item as Record<string, unknown>)[key];
        if (child === undefined || typeof child === "function") continue;
        // "key": plus a comma before every entry but the first.
        bytes += scalarBytes(key, limit - bytes) + 1 + (first ? 0 : 1);
        first = false;
        if (bytes > limit) break;
        stack.push({ value: child, depth: depth + 1 });
      }
    }
    if (bytes > limit) return { bytes, over: true };
  }
  return { bytes, over: false };
}

/** JSON bytes of a scalar (0 for containers); strings longer than `room` are not scanned. */
function scalarBytes(value: unknown, room: number): number {
  switch (typeof value) {
    case "string":
      // Each character is at least one byte: a string longer than the room is over without a scan.
      return value.length + 2 > room ? value.length + 2 : Buffer.byteLength(JSON.stringify(value));
    case "number":
    case "bigint":
    case "boolean":
      return String(value).length;
    case "object":
      return value === null ? 4 : 0;
    default:
      return 4; // undefined and functions: null in arrays, skipped in objects
  }
}

/**
 * A copy of `value` that is at most about `maxBytes` of JSON: strings cut in the
 * middle, arrays and objects cut after the items that fit, each cut marked. Walks
 * only what it keeps, so the cost is bounded by `maxBytes`, not by the value.
 */
export function boundValue(value: unknown, maxBytes: number): { value: unknown; cut: boolean } {
  const state = { room: maxBytes, cut: false };
  return { value: copy(value, state, 0), cut: state.cut };
}

function copy(value: unknown, state: { room: number; cut: boolean }, depth: number): unknown {
  if (typeof value === "string") {
    const room = Math.max(16, state.room - 2);
    const text = value.length > room ? cutMiddle(value, room) : value;
    if (text !== value) state.cut = true;
    state.room -= text.length + 2;
    return text;
  }
  if (value === null || typeof value !== "object") {
    state.room -= scalarBytes(value, Number.POSITIVE_INFINITY);
    return value;
  }
  if (depth >= MAX_DEPTH) {
    state.cut = true;
    return `[… nested deeper than ${MAX_DEPTH} levels: cut …]`;
  }
  state.room -= 2;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      if (state.room <= 0) {
        state.cut = true;
        out.push(`[… ${formatCount(value.length - i)} more items cut …]`);
        break;
      }
      state.room -= 1;
      out.push(copy(value[i] ?? null, state, depth + 1));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  let omitted = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = (value as Record<string, unknown>)[key];
    if (child === undefined || typeof child === "function") continue;
    if (state.room <= 0) {
      omitted++;
      continue;
    }
    const name = key.length > 256 ? cutMiddle(key, 256) : key;
    state.room -= name.length + 4;
    out[name] = copy(child, state, depth + 1);
  }
  if (omitted > 0) {
    state.cut = true;
    out[OMITTED_KEYS_KEY] = `${formatCount(omitted)} more keys cut`;
  }
  return out;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
