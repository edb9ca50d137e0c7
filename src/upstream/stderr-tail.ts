const DEFAULT_MAX_BYTES = 4096;

/** Keeps the last few KB a child wrote to stderr, to explain why it failed. */
export class StderrTail {
  #chunks: string[] = [];
  #bytes = 0;
  readonly #maxBytes: number;

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.#maxBytes = maxBytes;
  }

  push(chunk: string): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    while (this.#bytes > this.#maxBytes && this.#chunks.length > 1) {
      this.#bytes -= this.#chunks.shift()!.length;
    }
  }

  /** The kept text, cut to whole lines at the start, at most `maxLines` lines. */
  text(maxLines = 20): string {
    let text = this.#chunks.join("");
    if (text.length > this.#maxBytes) text = text.slice(text.length - this.#maxBytes);
    const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
    return lines.slice(-maxLines).join("\n");
  }

  clear(): void {
    this.#chunks = [];
    this.#bytes = 0;
  }
}
