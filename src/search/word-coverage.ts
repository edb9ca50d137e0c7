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
  const coverage = new Float64Array(groups.length);
  const index = termIndex(groups);
  terms.forEach((term, at) => {
    const places = index.get(term);
    if (!places) return;
    const weight = weights[at] ?? 0;
    for (const [group, factor] of places) coverage[group] = Math.max(coverage[group] ?? 0, factor * weight);
  });
  for (let at = 0; at < coverage.length; at++) coverage[at] = (coverage[at] ?? 0) * unit;
  return coverage;
}

/** Per query term, the groups it is in with its factor there; worked out once per search. */
const termIndexes = new WeakMap<readonly (readonly WeighedTerm[])[], Map<string, [number, number][]>>();

function termIndex(groups: readonly (readonly WeighedTerm[])[]): Map<string, [number, number][]> {
  let index = termIndexes.get(groups);
  if (index) return index;
  index = new Map();
  groups.forEach((group, at) => {
    for (const { term, factor } of group) {
      const places = index.get(term);
      if (places) places.push([at, factor]);
      else index.set(term, [[at, factor]]);
    }
  });
  termIndexes.set(groups, index);
  return index;
}
