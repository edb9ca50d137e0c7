/**
 * Bytes as base64 for the workspace's bridge: typed arrays and chunked
 * `fromCharCode`, fast on megabytes (atob/btoa in globals/base64.ts work on
 * strings, as the web standard says).
 */
import { fromCharCode, Uint8ArrayClass, Uint16ArrayClass } from "./intrinsics.ts";

const BASE64: number[] = [];
const BASE64_VALUES = new Uint8ArrayClass(128);
for (let index = 0; index < 64; index += 1) {
  const code = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(index);
  BASE64.push(code);
  BASE64_VALUES[code] = index;
}
// Chunks a multiple of 3 bytes long, so only the last one has padding.
const BASE64_CHUNK = 3 * 8192;
const BASE64_CODES = new Uint16ArrayClass((BASE64_CHUNK / 3) * 4);

function code(index: number): number {
  return BASE64[index]!;
}

function value(text: string, at: number): number {
  return BASE64_VALUES[text.charCodeAt(at)]!;
}

export function toBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  const length = bytes.length;
  const codes = BASE64_CODES;
  for (let start = 0; start < length; start += BASE64_CHUNK) {
    const end = start + BASE64_CHUNK < length ? start + BASE64_CHUNK : length;
    let at = start;
    let written = 0;
    for (; at + 2 < end; at += 3) {
      const n = (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]!;
      codes[written] = code(n >> 18);
      codes[written + 1] = code((n >> 12) & 63);
      codes[written + 2] = code((n >> 6) & 63);
      codes[written + 3] = code(n & 63);
      written += 4;
    }
    if (at < end) {
      const two = at + 1 < end;
      const n = (bytes[at]! << 16) | (two ? bytes[at + 1]! << 8 : 0);
      codes[written] = code(n >> 18);
      codes[written + 1] = code((n >> 12) & 63);
      codes[written + 2] = two ? code((n >> 6) & 63) : 61;
      codes[written + 3] = 61;
      written += 4;
    }
    const chunk = written === codes.length ? codes : codes.subarray(0, written);
    parts.push(fromCharCode.apply(undefined, chunk as unknown as number[]));
  }
  return parts.join("");
}

export function fromBase64(text: string): Uint8Array {
  let length = text.length;
  while (length > 0 && text.charCodeAt(length - 1) === 61) length -= 1;
  const out = new Uint8ArrayClass((length * 3) >> 2);
  let written = 0;
  let at = 0;
  for (; at + 3 < length; at += 4) {
    const n =
      (value(text, at) << 18) |
      (value(text, at + 1) << 12) |
      (value(text, at + 2) << 6) |
      value(text, at + 3);
    out[written] = n >> 16;
    out[written + 1] = (n >> 8) & 255;
    out[written + 2] = n & 255;
    written += 3;
  }
  const rest = length - at;
  if (rest >= 2) {
    const n =
      (value(text, at) << 18) | (value(text, at + 1) << 12) | (rest === 3 ? value(text, at + 2) << 6 : 0);
    out[written] = n >> 16;
    if (rest === 3) out[written + 1] = (n >> 8) & 255;
  }
  return out;
}
