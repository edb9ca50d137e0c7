import { encodeUtf8, SandboxTextDecoder } from "./text-encoding.ts";

/** Which code points a URL part percent-encodes (the URL Standard's sets), beyond C0 controls and non-ASCII. */
export const FRAGMENT_SET = ' "<>`';
export const QUERY_SET = ' "#<>';
export const SPECIAL_QUERY_SET = ` "#<>'`;
export const PATH_SET = ' "#<>?`{}';
export const USERINFO_SET = ' "#<>?`{}/:;=@[\\]^|';

const HEX = "0123456789ABCDEF";

function percentByte(byte: number): string {
  return `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
}

/** Percent-encodes the UTF-8 of every code point of `text` in C0, above `~`, or in `set`. */
export function percentEncode(text: string, set: string): string {
  let out = "";
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 0x20 && code < 0x7f && !set.includes(text[index] as string)) {
      out += text[index];
      continue;
    }
    if (code === 0x20 && !set.includes(" ")) {
      out += " ";
      continue;
    }
    const pair = code >= 0xd800 && code <= 0xdbff && index + 1 < text.length;
    const unit = pair ? text.slice(index, index + 2) : (text[index] as string);
    const next = pair ? text.charCodeAt(index + 1) : 0;
    const real = pair && next >= 0xdc00 && next <= 0xdfff;
    for (const byte of encodeUtf8(real ? unit : (text[index] as string)).bytes) out += percentByte(byte);
    if (real) index += 1;
  }
  return out;
}

/** The bytes of a string with `%XX` sequences decoded (other characters as their UTF-8). */
export function percentDecodeBytes(text: string): Uint8Array {
  const bytes = encodeUtf8(text).bytes;
  const out = new Uint8Array(bytes.length);
  let written = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index] as number;
    if (byte === 0x25 && index + 2 < bytes.length) {
      const hex = String.fromCharCode(bytes[index + 1] as number, bytes[index + 2] as number);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        out[written] = Number.parseInt(hex, 16);
        written += 1;
        index += 2;
        continue;
      }
    }
    out[written] = byte;
    written += 1;
  }
  return out.subarray(0, written);
}

export function utf8Decode(bytes: Uint8Array): string {
  return new SandboxTextDecoder().decode(bytes);
}

/** application/x-www-form-urlencoded parsing: name/value pairs. */
export function parseFormEncoded(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const part of text.split("&")) {
    if (part === "") continue;
    const equals = part.indexOf("=");
    const name = equals < 0 ? part : part.slice(0, equals);
    const value = equals < 0 ? "" : part.slice(equals + 1);
    pairs.push([
      utf8Decode(percentDecodeBytes(name.replace(/\+/g, " "))),
      utf8Decode(percentDecodeBytes(value.replace(/\+/g, " "))),
    ]);
  }
  return pairs;
}

function formEncode(text: string): string {
  let out = "";
  for (const byte of encodeUtf8(text).bytes) {
    if (byte === 0x20) out += "+";
    else if (
      (byte >= 0x30 && byte <= 0x39) ||
      (byte >= 0x41 && byte <= 0x5a) ||
      (byte >= 0x61 && byte <= 0x7a) ||
      byte === 0x2a ||
      byte === 0x2d ||
      byte === 0x2e ||
      byte === 0x5f
    ) {
      out += String.fromCharCode(byte);
    } else out += percentByte(byte);
  }
  return out;
}

/** application/x-www-form-urlencoded serializing. */
export function serializeFormEncoded(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([name, value]) => `${formEncode(name)}=${formEncode(value)}`).join("&");
}
