import { domException } from "./dom-exception.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUES = new Int16Array(128).fill(-1);
for (let index = 0; index < 64; index += 1) VALUES[ALPHABET.charCodeAt(index)] = index;
/** ASCII whitespace, which atob ignores. */
const WHITESPACE = /[\t\n\f\r ]/g;
/** Characters per String.fromCharCode call, under engines' argument limits. */
const CHUNK = 8192;

function invalid(what: string): Error {
  return domException(what, "InvalidCharacterError");
}

/** `btoa(data)`: a string of code points 0–255 to base64; any other code point throws InvalidCharacterError. */
export function btoa(...args: unknown[]): string {
  const data = args[0];
  if (args.length === 0) throw new TypeError("btoa: 1 argument required, but only 0 present");
  const text = String(data);
  const out: string[] = [];
  const codes: number[] = [];
  const flush = (): void => {
    out.push(String.fromCharCode(...codes));
    codes.length = 0;
  };
  for (let at = 0; at < text.length; at += 3) {
    const a = text.charCodeAt(at);
    const b = at + 1 < text.length ? text.charCodeAt(at + 1) : 0;
    const c = at + 2 < text.length ? text.charCodeAt(at + 2) : 0;
    if (a > 255 || b > 255 || c > 255) throw invalid("btoa: the string has a character outside Latin1 range");
    const n = (a << 16) | (b << 8) | c;
    codes.push(
      ALPHABET.charCodeAt(n >> 18),
      ALPHABET.charCodeAt((n >> 12) & 63),
      at + 1 < text.length ? ALPHABET.charCodeAt((n >> 6) & 63) : 61,
      at + 2 < text.length ? ALPHABET.charCodeAt(n & 63) : 61,
    );
    if (codes.length >= CHUNK) flush();
  }
  flush();
  return out.join("");
}

/** `atob(data)`: base64 (forgiving: whitespace and missing padding allowed) to a binary string. */
export function atob(...args: unknown[]): string {
  const data = args[0];
  if (args.length === 0) throw new TypeError("atob: 1 argument required, but only 0 present");
  let text = String(data).replace(WHITESPACE, "");
  if (text.length % 4 === 0 && text.endsWith("=")) text = text.slice(0, text.endsWith("==") ? -2 : -1);
  if (text.length % 4 === 1) throw invalid("atob: the string to be decoded is not correctly encoded");
  const out: string[] = [];
  const codes: number[] = [];
  let bits = 0;
  let buffer = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const value = code < 128 ? (VALUES[code] ?? -1) : -1;
    if (value < 0) throw invalid("atob: the string to be decoded is not correctly encoded");
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      codes.push((buffer >> bits) & 255);
      if (codes.length >= CHUNK) {
        out.push(String.fromCharCode(...codes));
        codes.length = 0;
      }
    }
  }
  out.push(String.fromCharCode(...codes));
  return out.join("");
}
