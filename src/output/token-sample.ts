import type { Tokenizer } from "./tokenizer.ts";

/** Characters of text a sample keeps, in all and from any one text. */
export const SAMPLE_BUDGET_CHARS = 8_192;
export const SAMPLE_PIECE_CHARS = 2_048;
/** Slices taken from a text too long to keep whole. */
const SLICES_PER_TEXT = 4;
/** Pieces counted one by one up to this many; more are joined and counted in one call (each call costs ~40 µs). */
const SEPARATE_COUNTS = 16;

/** Pieces of some texts, and the length of every text they stand for. */
class Pieces {
  readonly pieces: string[] = [];
  pieceChars = 0;
  /** Characters of the texts these pieces come from. */
  textChars = 0;

  push(piece: string): void {
    this.pieces.push(piece);
    this.pieceChars += piece.length;
  }
}

/**
 * Token counts of texts the model never reads (tool results kept in the
 * sandbox), estimated without tokenizing them on the call path. Texts that fit
 * the budget are kept whole and counted exactly; a longer one keeps a few
 * slices spread over it, whose tokens per character stand for the whole of
 * that text; texts that come once the budget is spent count at the rate of
 * everything sampled. When every text was kept whole, the count is exact.
 */
export class TokenSample {
  readonly #whole = new Pieces();
  readonly #sliced = new Pieces();
  #unseenChars = 0;

  add(text: string): void {
    const room = Math.min(
      SAMPLE_BUDGET_CHARS - this.#whole.pieceChars - this.#sliced.pieceChars,
      SAMPLE_PIECE_CHARS,
    );
    if (text.length <= room) {
      this.#whole.push(text);
      this.#whole.textChars += text.length;
      return;
    }
    if (room <= 0) {
      this.#unseenChars += text.length;
      return;
    }
    this.#sliced.textChars += text.length;
    // Slices spread over the text (a result's head is often unlike its body), each a copy:
    // V8's substrings would keep the whole (maybe megabytes) result alive.
    const slice = Math.ceil(room / SLICES_PER_TEXT);
    const stride = (text.length - slice) / (SLICES_PER_TEXT - 1);
    for (let index = 0; index < SLICES_PER_TEXT; index++) {
      const start = Math.floor(index * stride);
      this.#sliced.push(Buffer.from(text.slice(start, start + slice), "utf16le").toString("utf16le"));
    }
  }

  get chars(): number {
    return this.#whole.textChars + this.#sliced.textChars + this.#unseenChars;
  }

  /** Whether `tokens` is an exact count (every text was kept whole). */
  get exact(): boolean {
    return this.#sliced.textChars === 0 && this.#unseenChars === 0;
  }

  tokens(tokenizer: Tokenizer): number {
    const whole = countPieces(this.#whole.pieces, tokenizer);
    const sliced = countPieces(this.#sliced.pieces, tokenizer);
    let tokens = whole;
    if (this.#sliced.pieceChars > 0) tokens += (this.#sliced.textChars * sliced) / this.#sliced.pieceChars;
    const sampledChars = this.#whole.pieceChars + this.#sliced.pieceChars;
    if (this.#unseenChars > 0 && sampledChars > 0)
      tokens += (this.#unseenChars * (whole + sliced)) / sampledChars;
    return Math.round(tokens);
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
