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
  const { sum, squares, count } = moments(cosine);
  const mean = count > 0 ? sum / count : 0;
  const variance = Math.max(0, squares / Math.max(1, count) - mean * mean);
  return { cosine, mean, deviation: Math.max(MIN_DEVIATION, Math.sqrt(variance)) };
}

/**
 * The sum, sum of squares and count of the defined cosines. Its own function, with nothing after
 * the loop but the return: V8 (Node 20) compiles a long loop on the stack before the code after it
 * has ever run, and when that code needed type feedback, every later call deoptimised there
 * (which made this loop look like 40% of a search in CPU profiles).
 */
function moments(cosine: Float32Array): { sum: number; squares: number; count: number } {
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
  return { sum, squares, count };
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
 * How one search mixes its scores, worked out once: a document a query word matched ranks by
 * its lexical score over the query's best one plus `SEMANTIC_WEIGHT` × its similarity's z-score;
 * one matched by meaning alone, similar enough, by `SEMANTIC_WEIGHT` × its z-score.
 */
export interface Fusion {
  /** 1 / the best lexical score. */
  readonly lexicalScale: number;
  /** `SEMANTIC_WEIGHT` × z-score = similarity × this − `similarityOffset`. */
  readonly similarityScale: number;
  readonly similarityOffset: number;
  /** The least similarity of a document matched by meaning alone (see `SEMANTIC_ONLY_MIN_Z`). */
  readonly semanticOnlyMin: number;
}

export function fusion(best: number, { mean, deviation }: Similarities): Fusion {
  return {
    lexicalScale: 1 / best,
    similarityScale: SEMANTIC_WEIGHT / deviation,
    similarityOffset: (SEMANTIC_WEIGHT * mean) / deviation,
    semanticOnlyMin: Math.max(SEMANTIC_ONLY_MIN_COSINE, mean + SEMANTIC_ONLY_MIN_Z * deviation),
  };
}

/**
 * A document's rank value (see `Fusion`) from its `lexical` score (0: no query word matched)
 * and its `similarity` (NaN: it has no vector); NaN for a document that is not a candidate.
 * Multiplications only: it runs for every document of the index in every search.
 */
export function rankValue(fused: Fusion, lexical: number, similarity: number): number {
  const semantic = Number.isNaN(similarity) ? 0 : similarity * fused.similarityScale - fused.similarityOffset;
  if (lexical > 0) return lexical * fused.lexicalScale + semantic;
  return similarity >= fused.semanticOnlyMin ? semantic : Number.NaN;
}

/**
 * The `k` slots of the highest rank value (see `rankValue`), best first, that `accept` (when
 * given) passes. `lexical` and `cosine` hold each slot's lexical score and similarity; a slot
 * past the end of `cosine` has no vector. One pass, no array of rank values: it runs over every
 * document of the index in every search, so `rankValue` is written out here with the fusion's
 * terms and the top's floor in locals (twice as fast as calling it per slot).
 */
export function fusedTop(
  lexical: Float64Array,
  cosine: Float32Array,
  fused: Fusion,
  k: number,
  accept?: (slot: number) => boolean,
): number[] {
  const top = new TopSlots(k);
  const { lexicalScale, similarityScale, similarityOffset, semanticOnlyMin } = fused;
  const paired = Math.min(lexical.length, cosine.length);
  let floor = top.floor;
  for (let slot = 0; slot < lexical.length; slot++) {
    const score = lexical[slot] as number;
    const similarity = slot < paired ? (cosine[slot] as number) : Number.NaN;
    let value: number;
    // NaN (no vector) fails `>=` too.
    if (score > 0)
      value =
        score * lexicalScale +
        (Number.isNaN(similarity) ? 0 : similarity * similarityScale - similarityOffset);
    else if (similarity >= semanticOnlyMin) value = similarity * similarityScale - similarityOffset;
    else continue;
    if (!(value > floor) || (accept !== undefined && !accept(slot))) continue;
    top.offer(slot, value);
    floor = top.floor;
  }
  return top.best();
}
