import { createDotKernel, type DotKernel } from "./dot-kernel.ts";
import { quantiseInt8 } from "./int8.ts";

const FLOAT_BYTES = 4;
const align16 = (bytes: number) => (bytes + 15) & ~15;

/**
 * The search index's document embeddings (unit vectors), one row per slot, scored against a
 * query in one pass of the dot kernel. Rows are stored as int8 with a scale per row, a quarter
 * of float32's bytes: each search reads the whole matrix, mostly from memory rather than cache,
 * so fewer bytes is what makes the pass fast. Quantising moves a cosine by about 0.001; search
 * quality on the corpus folds and public sets did not change.
 *
 * The kernel's memory holds the query, then the rows (`capacity` of them, `stride` bytes
 * each), then one scale per row, then one score per row.
 */
export class VectorMatrix {
  readonly dimensions: number;
  readonly #kernel: DotKernel;
  /** Bytes per row: the dimensions, zero-padded to the kernel's 16-byte steps. */
  readonly #stride: number;
  readonly #rowsAt: number;
  #capacity = 0;
  /** 1 where the slot's row holds a vector. */
  #present = new Uint8Array(0);
  /** Rows scored per query: one past the highest slot ever set since the last `clear`. */
  #rows = 0;
  /** Rows below `#rows` without a vector (none: no slot needs marking NaN). */
  #absent = 0;

  constructor(dimensions: number, kernel: DotKernel = createDotKernel()) {
    if (!Number.isInteger(dimensions) || dimensions <= 0)
      throw new Error(`vector matrix: ${dimensions} dimensions, expected a positive integer`);
    this.dimensions = dimensions;
    this.#kernel = kernel;
    this.#stride = align16(dimensions);
    this.#rowsAt = this.#stride;
  }

  set(slot: number, vector: Float32Array): void {
    if (vector.length !== this.dimensions)
      throw new Error(`vector matrix: a vector of ${vector.length} components, expected ${this.dimensions}`);
    // A multiple of 4 rows keeps the scales and scores after them 16-aligned.
    if (slot >= this.#capacity) this.#grow(Math.ceil(Math.max(64, this.#capacity * 2, slot + 1) / 4) * 4);
    const scale = this.#quantise(vector, this.#rowAt(slot));
    new Float32Array(this.#kernel.buffer, this.#scalesAt(this.#capacity) + slot * FLOAT_BYTES, 1)[0] = scale;
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
    const scoresAt = this.#scoresAt(this.#capacity);
    const queryScale = this.#quantise(query, 0);
    this.#kernel.dots(
      0,
      this.#rowsAt,
      rows,
      this.#stride,
      this.#scalesAt(this.#capacity),
      queryScale,
      scoresAt,
    );
    const cosine = new Float32Array(this.#kernel.buffer, scoresAt, rows).slice();
    if (this.#absent > 0)
      for (let slot = 0; slot < rows; slot++) if (this.#present[slot] !== 1) cosine[slot] = Number.NaN;
    return cosine;
  }

  /** Writes `vector` as int8 at byte `at` (padding zeroed); returns the scale of one unit. */
  #quantise(vector: Float32Array, at: number): number {
    const row = new Int8Array(this.#kernel.buffer, at, this.#stride);
    row.fill(0);
    return quantiseInt8(vector, row);
  }

  #rowAt(slot: number): number {
    return this.#rowsAt + slot * this.#stride;
  }

  #scalesAt(capacity: number): number {
    return this.#rowAt(capacity);
  }

  #scoresAt(capacity: number): number {
    return this.#scalesAt(capacity) + capacity * FLOAT_BYTES;
  }

  #grow(capacity: number): void {
    // Rows keep their offsets; the scales after them move up, and the scores after those are scratch.
    const scales = this.#scalesAt(this.#capacity);
    this.#kernel.reserve(this.#scoresAt(capacity) + capacity * FLOAT_BYTES);
    new Uint8Array(this.#kernel.buffer).copyWithin(
      this.#scalesAt(capacity),
      scales,
      scales + this.#capacity * FLOAT_BYTES,
    );
    const present = new Uint8Array(capacity);
    present.set(this.#present);
    this.#present = present;
    this.#capacity = capacity;
  }
}
