/**
 * A text with spans replaced, built piece by piece in text order. Pieces are
 * joined at each `flush()` (once per scanned chunk), so a text with millions
 * of replacements never holds millions of pieces at once.
 */
export class SpanReplacer {
  readonly #text: string;
  #last = 0;
  #replaced = false;
  #pieces: string[] = [];
  readonly #joined: string[] = [];

  constructor(text: string) {
    this.#text = text;
  }

  /** Replaces text[start, end) with `by`; spans come in text order and do not overlap. */
  replace(start: number, end: number, by: string): void {
    this.#pieces.push(this.#text.slice(this.#last, start), by);
    this.#last = end;
    this.#replaced = true;
  }

  flush(): void {
    if (this.#pieces.length === 0) return;
    this.#joined.push(this.#pieces.join(""));
    this.#pieces = [];
  }

  /** The whole text with its replacements; the original string itself when nothing was replaced. */
  finish(): string {
    if (!this.#replaced) return this.#text;
    this.#pieces.push(this.#text.slice(this.#last));
    this.flush();
    return this.#joined.length === 1 ? (this.#joined[0] as string) : this.#joined.join("");
  }
}
