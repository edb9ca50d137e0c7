/**
 * Adding word-vector similarity to the lexical score. Lexical scores are divided by the
 * query's best one, so the mix does not depend on how long the query is (a long task has
 * low normalised lexical scores); similarities are standardised over the index (z-scores),
 * since static-vector cosines of unrelated texts are far from 0 and differ by corpus.
 */

/** How much one standard deviation of similarity counts against the best lexical match (1). */
export const SEMANTIC_WEIGHT = 0.25;
/**
 * A document no query word matches is a candidate only this far above the mean similarity,
 * and at least as similar as unrelated texts typically are (their median with the shipped
 * vectors): the z-score chooses, the floor keeps a catalog of near-identical tools out.
 */
export const SEMANTIC_ONLY_MIN_Z = 1;
export const SEMANTIC_ONLY_MIN_COSINE = 0.35;
/** Below this spread every document reads alike to the query: differences are noise. */
const MIN_DEVIATION = 0.05;

/** Per-slot similarity of the query to each document, with the mean and spread that standardise it. */
export interface Similarities {
  /** Cosine per slot (NaN for a slot without a vector). */
  readonly cosine: Float32Array;
  readonly mean: number;
  readonly deviation: number;
}

/** Cosines of `query` with every row of `matrix` whose slot `hasVector`, with their mean and deviation. */
export function similarities(
  query: Float32Array,
  matrix: Float32Array,
  hasVector: Uint8Array,
  slots: number,
): Similarities {
  const d = query.length;
  const cosine = new Float32Array(slots).fill(Number.NaN);
  let sum = 0;
  let squares = 0;
  let count = 0;
  for (let slot = 0; slot < slots; slot++) {
    if (hasVector[slot] !== 1) continue;
    // Four running sums: this loop is most of a query's time in a large catalog.
    let a = 0;
    let b = 0;
    let c = 0;
    let e = 0;
    let at = slot * d;
    for (let k = 0; k < d; k += 4, at += 4) {
      a += (query[k] as number) * (matrix[at] as number);
      b += (query[k + 1] as number) * (matrix[at + 1] as number);
      c += (query[k + 2] as number) * (matrix[at + 2] as number);
      e += (query[k + 3] as number) * (matrix[at + 3] as number);
    }
    const dot = a + b + c + e;
    cosine[slot] = dot;
    sum += dot;
    squares += dot * dot;
    count++;
  }
  const mean = count > 0 ? sum / count : 0;
  const deviation = Math.max(
    MIN_DEVIATION,
    Math.sqrt(Math.max(0, squares / Math.max(1, count) - mean * mean)),
  );
  return { cosine, mean, deviation };
}
