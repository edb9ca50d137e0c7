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
 * and at least this similar (unrelated texts score about 0.35 with the shipped vectors).
 */
export const SEMANTIC_ONLY_MIN_Z = 1;
export const SEMANTIC_ONLY_MIN_COSINE = 0.5;
/** Below this spread every document reads alike to the query: differences are noise. */
const MIN_DEVIATION = 0.05;

/** Per-slot similarity of the query to each document, and its standardised form. */
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
    let dot = 0;
    const base = slot * d;
    for (let k = 0; k < d; k++) dot += (query[k] as number) * (matrix[base + k] as number);
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

/** Whether a document no query word matched is still worth ranking. */
export function similarEnough(similarity: Similarities, slot: number): boolean {
  const cosine = similarity.cosine[slot] ?? Number.NaN;
  return cosine >= SEMANTIC_ONLY_MIN_COSINE && zScore(similarity, slot) >= SEMANTIC_ONLY_MIN_Z;
}

/** The standardised similarity of a slot, 0 for a slot without a vector. */
export function zScore(similarity: Similarities, slot: number): number {
  const cosine = similarity.cosine[slot] ?? Number.NaN;
  return Number.isNaN(cosine) ? 0 : (cosine - similarity.mean) / similarity.deviation;
}
