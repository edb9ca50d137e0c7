import type { Tokenizer } from "./tokenizer.ts";

/** Characters of text a sample keeps, in all and from any one text. */
export const SAMPLE_BUDGET_CHARS = 8_192;
export const SAMPLE_PIECE_CHARS = 2_048;
/** Pieces counted one by one up to this many; more are joined and counted in one call (each call costs ~40 µs). */
const SEPARATE_COUNTS = 16;

/**
 * Token counts of texts the model never reads (tool results kept in the
 * sandbox), estimated without tokenizing them on the call path: every text
 * adds its length, and the first ones keep a piece each until the budget is
 * spent. At the end the pieces are tokenized and their tokens per character
 * applied to the whole length. When the pieces hold every text whole (small
 * executions), the count is exact.
 */
export class TokenSample {
  readonly #pieces: string[] = [];
  #pieceChars = 0;
  #totalChars = 0;
  #whole = true;

  add(text: string): void {
    this.#totalChars += text.length;
    const room = Math.min(SAMPLE_BUDGET_CHARS - this.#pieceChars, SAMPLE_PIECE_CHARS);
    if (text.length <= room) {
      this.#pieces.push(text);
      this.#pieceChars += text.length;
      return;
    }
    this.#whole = false;
    if (room <= 0) return;
    // A copy, not a slice: V8's slices keep the whole (maybe megabytes) result alive.
    this.#pieces.push(Buffer.from(text.slice(0, room), "utf16le").toString("utf16le"));
    this.#pieceChars += room;
  }

  get chars(): number {
    return this.#totalChars;
  }

  /** Whether `tokens` is an exact count (every text was kept whole). */
  get exact(): boolean {
    return this.#whole;
  }

  tokens(tokenizer: Tokenizer): number {
    const sampled = countPieces(this.#pieces, tokenizer);
    if (this.#whole) return sampled;
    if (this.#pieceChars === 0) return 0;
    return Math.round((this.#totalChars * sampled) / this.#pieceChars);
  }
}

/** Tokens of the pieces: each on its own when few, else joined by newlines less what the newlines cost. */
function countPieces(pieces: readonly string[], tokenizer: Tokenizer): number {
  if (pieces.length <= SEPARATE_COUNTS) {
    let tokens = 0;
    for (const piece of pieces) tokens += tokenizer.count(piece);
    return tokens;
  }
  const joined = tokenizer.count(pieces.join("\n"));
  return Math.max(0, joined - (pieces.length - 1) * tokenizer.count("\n"));
}
