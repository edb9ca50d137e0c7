/**
 * What a result matches of each request word. A task of several steps ("get Apple's stock
 * history, then put it in a PPT") is served by one tool per step; when the first results all
 * match the same words ("analyze", "summarize"), a result matching another word ("stock")
 * says more. `diversify` counts a word a result above already matched less (see diversify.ts).
 */

/** A term of one request word's group (the word and its related words), with what a match on it counts. */
export interface WeighedTerm {
  readonly term: string;
  /** idf × query weight: a document's term weight times this is what the term adds. */
  readonly factor: number;
}

/**
 * Per request word (`groups`, in order), what a document with `terms` at `weights` gains from
 * it: its best term's factor × the document's weight for that term, times `unit` (the scale of
 * the scores it is compared with). 0 for a word the document does not match.
 */
export function wordCoverage(
  groups: readonly (readonly WeighedTerm[])[],
  terms: readonly string[],
  weights: readonly number[],
  unit: number,
): Float64Array {
  const weightOf = new Map(terms.map((term, at) => [term, weights[at] ?? 0]));
  const coverage = new Float64Array(groups.length);
  groups.forEach((group, at) => {
    let best = 0;
    for (const { term, factor } of group) best = Math.max(best, factor * (weightOf.get(term) ?? 0));
    coverage[at] = best * unit;
  });
  return coverage;
}
