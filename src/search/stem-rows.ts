/**
 * Stem → weighted stems (a word's related words, a tool word's request words), held flat: row
 * offsets into one array of stem numbers and one of weights, each stem's text once. A map of
 * small arrays of objects would cost several times the table.
 */
export class StemRows {
  readonly #rows = new Map<string, number>();
  readonly #stems: string[] = [];
  readonly #offsets: Int32Array;
  readonly #ids: Int32Array;
  readonly #weights: Float32Array | Float64Array;

  /** Every row given, in order; `Weights` says how precisely the weights are kept. */
  constructor(
    rows: Iterable<readonly [key: string, items: Iterable<readonly [stem: string, weight: number]>]>,
    Weights: Float32ArrayConstructor | Float64ArrayConstructor = Float64Array,
  ) {
    const numbers = new Map<string, number>();
    const offsets = [0];
    const ids: number[] = [];
    const weights: number[] = [];
    for (const [key, items] of rows) {
      for (const [stem, weight] of items) {
        let number = numbers.get(stem);
        if (number === undefined) {
          number = this.#stems.length;
          numbers.set(stem, number);
          this.#stems.push(stem);
        }
        ids.push(number);
        weights.push(weight);
      }
      this.#rows.set(key, offsets.length - 1);
      offsets.push(ids.length);
    }
    this.#offsets = Int32Array.from(offsets);
    this.#ids = Int32Array.from(ids);
    this.#weights = Weights.from(weights);
  }

  get size(): number {
    return this.#rows.size;
  }

  /** Calls `visit` with each stem of `key`'s row and its weight, in the row's order. */
  forEach(key: string, visit: (stem: string, weight: number) => void): void {
    const row = this.#rows.get(key);
    if (row === undefined) return;
    for (let at = this.#offsets[row] ?? 0; at < (this.#offsets[row + 1] ?? 0); at++)
      visit(this.#stems[this.#ids[at] ?? -1] ?? "", this.#weights[at] ?? 0);
  }
}

/**
 * A table's `stem:weight stem:weight …` text as pairs; items without a positive weight are left
 * out, or without a finite one when the table's weights are `signed` (request-pairs.ts).
 */
export function weightedStems(text: string, signed = false): [stem: string, weight: number][] {
  const items: [string, number][] = [];
  for (const item of text.split(" ")) {
    const colon = item.lastIndexOf(":");
    const weight = Number(item.slice(colon + 1));
    if (colon > 0 && (signed ? Number.isFinite(weight) : weight > 0))
      items.push([item.slice(0, colon), weight]);
  }
  return items;
}
