import { createDotKernel, type DotKernel } from "./dot-kernel.ts";

const FLOAT_BYTES = 4;
const align16 = (bytes: number) => (bytes + 15) & ~15;

/**
 * The search index's document embeddings (unit vectors), one row per slot, scored against a
 * query in one pass of the dot kernel. The kernel's memory holds the query, then the rows
 * (`capacity` of them), then one score per row.
 */
export class VectorMatrix {
  readonly dimensions: number;
  readonly #kernel: DotKernel;
  readonly #rowsAt: number;
  #capacity = 0;
  /** 1 where the slot's row holds a vector. */
  #present = new Uint8Array(0);
  /** Rows scored per query: one past the highest slot ever set since the last `clear`. */
  #rows = 0;
  /** Rows below `#rows` without a vector (none: no slot needs marking NaN). */
  #absent = 0;

  constructor(dimensions: number, kernel: DotKernel = createDotKernel()) {
    if (dimensions <= 0 || dimensions % 4 !== 0)
      throw new Error(`vector matrix: ${dimensions} dimensions, expected a positive multiple of 4`);
    this.dimensions = dimensions;
    this.#kernel = kernel;
    this.#rowsAt = align16(dimensions * FLOAT_BYTES);
  }

  set(slot: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions)
      throw new Error(`vector matrix: a vector of ${vector.length} components, expected ${this.dimensions}`);
    if (slot >= this.#capacity) this.#grow(Math.max(64, this.#capacity * 2, slot + 1));
    new Float32Array(this.#kernel.buffer, this.#rowAt(slot), this.dimensions).set(vector);
    // Slots skipped on the way to this one have no vector.
    if (slot >= this.#rows) this.#absent += slot - this.#rows;
    else if (this.#present[slot] !== 1) this.#absent--;
    this.#present[slot] = 1;
    this.#rows = Math.max(this.#rows, slot + 1);
  }

  delete(slot: number): void {
    if (slot >= this.#rows || this.#present[slot] !== 1) return;
    this.#present[slot] = 0;
    this.#absent++;
  }

  clear(): void {
    this.#present.fill(0);
    this.#rows = 0;
    this.#absent = 0;
  }

  /** The query's cosine with every row, NaN where a slot has no vector. */
  cosines(query: Float32Array): Float32Array {
    const rows = this.#rows;
    if (rows === 0) return new Float32Array(0);
    const scoresAt = this.#rowAt(this.#capacity);
    new Float32Array(this.#kernel.buffer, 0, this.dimensions).set(query);
    this.#kernel.dots(0, this.#rowsAt, rows, this.dimensions, scoresAt);
    const cosine = new Float32Array(this.#kernel.buffer, scoresAt, rows).slice();
    if (this.#absent > 0)
      for (let slot = 0; slot < rows; slot++) if (this.#present[slot] !== 1) cosine[slot] = Number.NaN;
    return cosine;
  }

  #rowAt(slot: number): number {
    return this.#rowsAt + slot * this.dimensions * FLOAT_BYTES;
  }

  #grow(capacity: number): void {
    // Rows keep their offsets; the scores after them are scratch, so moving them loses nothing.
    this.#kernel.reserve(this.#rowAt(capacity) + capacity * FLOAT_BYTES);
    const present = new Uint8Array(capacity);
    present.set(this.#present);
    this.#present = present;
    this.#capacity = capacity;
  }
}
