import type { BootFiles, BootHeader } from "./boot.ts";

/**
 * Reads the sandbox's stdin: first the boot header and its bytes, then JSON
 * lines. Written against the stream Deno gives, captured before any other
 * code runs.
 */
export class StdinReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  /** Bytes read past what was consumed so far. */
  #pending: Uint8Array = new Uint8Array(0);

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  async #more(): Promise<boolean> {
    const chunk = await this.#reader.read();
    if (chunk.done) return false;
    const joined = new Uint8Array(this.#pending.length + chunk.value.length);
    joined.set(this.#pending);
    joined.set(chunk.value, this.#pending.length);
    this.#pending = joined;
    return true;
  }

  /** The next line, or undefined when stdin has closed. */
  async line(): Promise<string | undefined> {
    for (;;) {
      const index = this.#pending.indexOf(10);
      if (index >= 0) {
        const line = this.#decoder.decode(this.#pending.subarray(0, index));
        this.#pending = this.#pending.subarray(index + 1);
        return line;
      }
      if (!(await this.#more())) return undefined;
    }
  }

  /** Exactly `size` bytes, copied into one buffer (chunks are appended in place, not re-joined). */
  async bytes(size: number): Promise<Uint8Array | undefined> {
    const out = new Uint8Array(size);
    let filled = Math.min(size, this.#pending.length);
    out.set(this.#pending.subarray(0, filled));
    this.#pending = this.#pending.subarray(filled);
    while (filled < size) {
      const chunk = await this.#reader.read();
      if (chunk.done) return undefined;
      const take = Math.min(size - filled, chunk.value.length);
      out.set(chunk.value.subarray(0, take), filled);
      filled += take;
      if (take < chunk.value.length) this.#pending = chunk.value.subarray(take);
    }
    return out;
  }

  /** The boot header and its buffers; undefined when stdin ends early. */
  async boot(): Promise<{ header: BootHeader; files: BootFiles } | undefined> {
    const line = await this.line();
    if (line === undefined) return undefined;
    const header = JSON.parse(line) as BootHeader;
    const wasm = await this.bytes(header.sizes.wasm);
    const stdlib = await this.bytes(header.sizes.stdlib);
    const snapshot = header.sizes.snapshot > 0 ? await this.bytes(header.sizes.snapshot) : new Uint8Array(0);
    if (wasm === undefined || stdlib === undefined || snapshot === undefined) return undefined;
    return { header, files: { wasm, stdlib, snapshot: snapshot.length > 0 ? snapshot : undefined } };
  }
}
