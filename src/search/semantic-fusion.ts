import { TopSlots } from "./top-k.ts";

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
/**
 * In a task of several steps, each tool serves one step: a document's similarity is this
 * share of its best similarity to one step, the rest its similarity to the whole task.
 */
export const CLAUSE_WEIGHT = 0.5;

/** Per-slot similarity of the query to each document, with the mean and spread that standardise it. */
export interface Similarities {
  /** Cosine per slot (NaN for a slot without a vector). */
  readonly cosine: Float32Array;
  readonly mean: number;
  readonly deviation: number;
}

/** The mean and spread of the defined cosines, which standardise them. */
export function standardise(cosine: Float32Array): Similarities {
  let sum = 0;
  let squares = 0;
  let count = 0;
  for (let slot = 0; slot < cosine.length; slot++) {
    const value = cosine[slot] as number;
    if (Number.isNaN(value)) continue;
    sum += value;
    squares += value * value;
    count++;
  }
  const mean = count > 0 ? sum / count : 0;
  const variance = Math.max(0, squares / Math.max(1, count) - mean * mean);
  return { cosine, mean, deviation: Math.max(MIN_DEVIATION, Math.sqrt(variance)) };
}

/**
 * Each document's similarity to a task of several steps: `CLAUSE_WEIGHT` of its best
 * similarity to one step, the rest of its similarity to the whole (`whole` is overwritten).
 */
export function blendSteps(whole: Float32Array, steps: readonly Float32Array[]): Float32Array {
  if (steps.length === 0) return whole;
  for (let slot = 0; slot < whole.length; slot++) {
    let best = Number.NEGATIVE_INFINITY;
    for (const step of steps) best = Math.max(best, step[slot] ?? Number.NaN);
    const value = whole[slot] ?? Number.NaN;
    // NaN (no vector) stays NaN.
    whole[slot] = (1 - CLAUSE_WEIGHT) * value + CLAUSE_WEIGHT * best;
  }
  return whole;
}

/**
 * The rank value of a document a query word matched (`lexical`, its lexical score, over the
 * query's `best` one, plus `SEMANTIC_WEIGHT` × its similarity's z-score) or, similar enough by
 * meaning alone (`lexical` 0), `SEMANTIC_WEIGHT` × its z-score; NaN for any other (not a
 * candidate). `similarity` is NaN for a document without a vector.
 */
export function rankValue(
  lexical: number,
  best: number,
  similarity: number,
  similarities: Similarities,
): number {
  const z = Number.isNaN(similarity) ? 0 : (similarity - similarities.mean) / similarities.deviation;
  if (lexical > 0) return lexical / best + SEMANTIC_WEIGHT * z;
  if (similarity >= SEMANTIC_ONLY_MIN_COSINE && z >= SEMANTIC_ONLY_MIN_Z) return SEMANTIC_WEIGHT * z;
  return Number.NaN;
}

/**
 * The `k` slots of the highest rank value (see `rankValue`), best first, that `accept` (when
 * given) passes. `lexical` holds each slot's lexical score; a slot past the end of the
 * similarities' `cosine` has no vector. One pass, no array of rank values: it runs over every
 * document of the index for every search.
 */
export function fusedTop(
  lexical: Float64Array,
  best: number,
  similarities: Similarities,
  k: number,
  accept?: (slot: number) => boolean,
): number[] {
  const { cosine } = similarities;
  const top = new TopSlots(k);
  for (let slot = 0; slot < lexical.length; slot++) {
    const similarity = slot < cosine.length ? (cosine[slot] as number) : Number.NaN;
    const value = rankValue(lexical[slot] as number, best, similarity, similarities);
    // NaN fails the comparison too.
    if (!(value > top.floor) || (accept !== undefined && !accept(slot))) continue;
    top.offer(slot, value);
  }
  return top.best();
}
