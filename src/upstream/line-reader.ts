/** Bytes kept from each end of an oversized line: enough to find its JSON-RPC `id`. */
const EDGE_BYTES = 1024;

/** A line longer than the limit: its size and both ends; the middle was never buffered. */
export interface OversizedLine {
  bytes: number;
  head: string;
  tail: string;
}

export interface LineSink {
  /** Every line, blank ones too (they end server-sent events). */
  line(text: string): void;
  oversized(line: OversizedLine): void;
}

/**
 * Splits a byte stream into newline-terminated lines, never holding more
 * than `maxLineBytes` of one line. A longer line is skipped up to its
 * newline (so the stream stays usable) and reported with its size and ends.
 * The SDK's ReadBuffer instead throws from inside the stream's data handler,
 * which nothing catches: one big upstream message ended the process.
 */
export class BoundedLineReader {
  readonly #maxLineBytes: number;
  readonly #sink: LineSink;
  #parts: Buffer[] = [];
  #size = 0;
  /** Set while skipping the rest of an oversized line. */
  #skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(maxLineBytes: number, sink: LineSink) {
    this.#maxLineBytes = maxLineBytes;
    this.#sink = sink;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  clear(): void {
    this.#parts = [];
    this.#size = 0;
    this.#skipping = undefined;
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    const skipping = this.#skipping;
    if (skipping) {
      skipping.bytes += piece.length;
      skipping.tail = lastBytes(Buffer.concat([skipping.tail, lastBytes(piece)]));
      return;
    }
    if (this.#size + piece.length <= this.#maxLineBytes) {
      // Copied: the stream may reuse its chunk buffers.
      this.#parts.push(Buffer.from(piece));
      this.#size += piece.length;
      return;
    }
    const held = Buffer.concat(this.#parts);
    const head = Buffer.concat([held.subarray(0, EDGE_BYTES), piece.subarray(0, EDGE_BYTES)]).subarray(
      0,
      EDGE_BYTES,
    );
    this.#skipping = {
      bytes: this.#size + piece.length,
      head: Buffer.from(head),
      tail: lastBytes(Buffer.concat([lastBytes(held), lastBytes(piece)])),
    };
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    const skipping = this.#skipping;
    if (skipping) {
      this.#skipping = undefined;
      this.#sink.oversized({
        bytes: skipping.bytes,
        head: skipping.head.toString("utf8"),
        tail: skipping.tail.toString("utf8").replace(/\r$/, ""),
      });
      return;
    }
    const text = Buffer.concat(this.#parts).toString("utf8").replace(/\r$/, "");
    this.#parts = [];
    this.#size = 0;
    this.#sink.line(text);
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return Buffer.from(buffer.subarray(Math.max(0, buffer.length - EDGE_BYTES)));
}
