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
  for (const value of cosine) {
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

/** The documents a query matches by word or, closely enough, by meaning, with their rank values. */
export interface Fused {
  /** Per slot, its lexical score (0: no query word matched). */
  readonly lexical: Float64Array;
  /** Per slot, its lexical score over the best one plus `SEMANTIC_WEIGHT` × its similarity's z-score. */
  readonly rankValue: Float64Array;
  /** The slots ranked: those a query word matched, and those similar enough by meaning alone. */
  readonly candidates: number[];
  /** The best lexical score. */
  readonly best: number;
}

/**
 * Lexical scores (`values[i]` of slot `slots[i]`) fused with the similarities of the slots
 * `0..size - 1` (a slot past the end of `cosine` has no vector).
 */
export function fuse(
  scored: { readonly slots: readonly number[]; readonly values: readonly number[] },
  similarities: Similarities,
  size: number,
): Fused {
  const { cosine, mean, deviation } = similarities;
  const lexical = new Float64Array(size);
  let best = 0;
  for (let at = 0; at < scored.slots.length; at++) {
    const value = scored.values[at] ?? 0;
    lexical[scored.slots[at] ?? 0] = value;
    if (value > best) best = value;
  }
  const rankValue = new Float64Array(size);
  const candidates: number[] = [];
  for (let slot = 0; slot < size; slot++) {
    const similarity = cosine[slot] ?? Number.NaN;
    const z = Number.isNaN(similarity) ? 0 : (similarity - mean) / deviation;
    const matched = lexical[slot] ?? 0;
    if (matched > 0) rankValue[slot] = matched / best + SEMANTIC_WEIGHT * z;
    else if (similarity >= SEMANTIC_ONLY_MIN_COSINE && z >= SEMANTIC_ONLY_MIN_Z)
      rankValue[slot] = SEMANTIC_WEIGHT * z;
    else continue;
    candidates.push(slot);
  }
  return { lexical, rankValue, candidates, best };
}
