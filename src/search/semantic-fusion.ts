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
export const MIN_DEVIATION = 0.05;

/** Per-slot similarity of the query to each document, with the mean and spread that standardise it. */
export interface Similarities {
  /** Cosine per slot (NaN for a slot without a vector). */
  readonly cosine: Float32Array;
  readonly mean: number;
  readonly deviation: number;
}
