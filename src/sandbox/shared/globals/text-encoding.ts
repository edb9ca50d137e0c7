/** Labels of UTF-8, the one encoding the sandbox decodes (the Encoding Standard's list). */
const UTF8_LABELS = new Set([
  "unicode-1-1-utf-8",
  "unicode11utf8",
  "unicode20utf8",
  "utf-8",
  "utf8",
  "x-unicode20utf8",
]);

/** UTF-8 of a string; lone surrogates become U+FFFD, as the Encoding Standard says. */
function encodeUtf8(text: string, into?: Uint8Array): { bytes: Uint8Array; read: number; written: number } {
  const out = into ?? new Uint8Array(text.length * 3);
  const limit = out.length;
  let written = 0;
  let read = 0;
  while (read < text.length) {
    let code = text.charCodeAt(read);
    let units = 1;
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = read + 1 < text.length ? text.charCodeAt(read + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        units = 2;
      } else code = 0xfffd;
    }
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (written + size > limit) break;
    if (size === 1) out[written] = code;
    else if (size === 2) {
      out[written] = 0xc0 | (code >> 6);
      out[written + 1] = 0x80 | (code & 63);
    } else if (size === 3) {
      out[written] = 0xe0 | (code >> 12);
      out[written + 1] = 0x80 | ((code >> 6) & 63);
      out[written + 2] = 0x80 | (code & 63);
    } else {
      out[written] = 0xf0 | (code >> 18);
      out[written + 1] = 0x80 | ((code >> 12) & 63);
      out[written + 2] = 0x80 | ((code >> 6) & 63);
      out[written + 3] = 0x80 | (code & 63);
    }
    written += size;
    read += units;
  }
  return { bytes: into ? out : out.slice(0, written), read, written };
}

/** `TextEncoder`: strings to UTF-8 bytes. */
export class SandboxTextEncoder {
  get encoding(): string {
    return "utf-8";
  }
  encode(input: unknown = ""): Uint8Array {
    return encodeUtf8(String(input)).bytes;
  }
  encodeInto(source: unknown, destination: Uint8Array): { read: number; written: number } {
    if (!(destination instanceof Uint8Array))
      throw new TypeError("encodeInto: destination must be a Uint8Array");
    const { read, written } = encodeUtf8(String(source), destination);
    return { read, written };
  }
}
Object.defineProperty(SandboxTextEncoder, "name", { value: "TextEncoder" });

function bytesOf(input: unknown): Uint8Array {
  if (input === undefined) return new Uint8Array(0);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError("TextDecoder.decode: input must be an ArrayBuffer or an ArrayBuffer view");
}

export interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}

/** `TextDecoder` for UTF-8: invalid sequences become U+FFFD (or throw with `fatal`); `stream` keeps a split character. */
export class SandboxTextDecoder {
  readonly #fatal: boolean;
  readonly #ignoreBOM: boolean;
  #pending: number[] = [];
  #sawStart = false;

  constructor(label: unknown = "utf-8", options: TextDecoderOptions = {}) {
    const name = String(label).trim().toLowerCase();
    if (!UTF8_LABELS.has(name)) {
      throw new RangeError(
        `The encoding label provided ('${String(label)}') is invalid or not supported here`,
      );
    }
    this.#fatal = Boolean(options?.fatal);
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
  }
  get encoding(): string {
    return "utf-8";
  }
  get fatal(): boolean {
    return this.#fatal;
  }
  get ignoreBOM(): boolean {
    return this.#ignoreBOM;
  }

  decode(input?: unknown, options?: { stream?: boolean }): string {
    const stream = Boolean(options?.stream);
    const fresh = bytesOf(input);
    const bytes = this.#pending.length === 0 ? fresh : Uint8Array.from([...this.#pending, ...fresh]);
    this.#pending = [];
    const parts: string[] = [];
    let units: number[] = [];
    const push = (code: number): void => {
      if (code >= 0x10000) {
        const offset = code - 0x10000;
        units.push(0xd800 + (offset >> 10), 0xdc00 + (offset & 1023));
      } else units.push(code);
      if (units.length >= 8192) {
        parts.push(String.fromCharCode(...units));
        units = [];
      }
    };
    const bad = (): void => {
      if (this.#fatal) throw new TypeError("The encoded data was not valid for encoding utf-8");
      push(0xfffd);
    };
    let at = 0;
    while (at < bytes.length) {
      const first = bytes[at] as number;
      if (first < 0x80) {
        push(first);
        at += 1;
        continue;
      }
      const size =
        first >= 0xc2 && first <= 0xdf
          ? 2
          : first >= 0xe0 && first <= 0xef
            ? 3
            : first >= 0xf0 && first <= 0xf4
              ? 4
              : 0;
      if (size === 0) {
        bad();
        at += 1;
        continue;
      }
      // The second byte's range depends on the first (no overlongs, surrogates or code points past U+10FFFF).
      const low = first === 0xe0 ? 0xa0 : first === 0xf0 ? 0x90 : 0x80;
      const high = first === 0xed ? 0x9f : first === 0xf4 ? 0x8f : 0xbf;
      let code = first & (size === 2 ? 0x1f : size === 3 ? 0x0f : 0x07);
      let seen = 1;
      while (seen < size && at + seen < bytes.length) {
        const next = bytes[at + seen] as number;
        if (next < (seen === 1 ? low : 0x80) || next > (seen === 1 ? high : 0xbf)) break;
        code = (code << 6) | (next & 63);
        seen += 1;
      }
      if (seen === size) {
        push(code);
        at += size;
      } else if (at + seen >= bytes.length && stream) {
        this.#pending = Array.from(bytes.subarray(at));
        at = bytes.length;
      } else {
        // The maximal subpart of an ill-formed sequence becomes one U+FFFD.
        bad();
        at += seen;
      }
    }
    parts.push(String.fromCharCode(...units));
    let text = parts.join("");
    if (!this.#sawStart && text.length > 0) {
      this.#sawStart = true;
      if (!this.#ignoreBOM && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (!stream) this.#sawStart = false;
    return text;
  }
}
Object.defineProperty(SandboxTextDecoder, "name", { value: "TextDecoder" });

export { encodeUtf8 };
