import { type RankOf, splitCompound } from "./compounds.ts";
import type { WeightedTerm } from "./query.ts";
import { terms as termsOf } from "./tokenize.ts";
import { readUnknownWord } from "./unknown-words.ts";

/**
 * Matches for a query word the index does not hold: the index's words it begins ("crypto" →
 * cryptocurrencies, "kube" → kubernetes), the words it joins ("hackernews" → hacker, news),
 * and, for a word no dictionary knows, the word one slip away ("recomend" → recommend).
 * A word the index holds is matched as itself only, so this never dilutes an exact match.
 */

/**
 * Weight of a partial match relative to the query word: a guess at the word meant, so below a
 * known synonym (`DOMAIN_SYNONYM_WEIGHT`).
 */
export const PARTIAL_MATCH_WEIGHT = 0.35;
/** Shorter stems begin too many words to mean one ("app", "car"). */
const MIN_PREFIX = 4;
/** A prefix beginning more index words than this says too little to guess from. */
const MAX_COMPLETIONS = 3;

/** The index's vocabulary as partial matching reads it. */
export interface IndexTerms {
  /** Every term the index has held, sorted (may include terms no live document holds). */
  sorted(): readonly string[];
  /** Whether a live document holds the term. */
  has(term: string): boolean;
}

/** Live index terms that begin with `prefix` (none if more than `MAX_COMPLETIONS`). */
export function completions(prefix: string, index: IndexTerms): string[] {
  const sorted = index.sorted();
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] ?? "") < prefix) low = middle + 1;
    else high = middle;
  }
  const found: string[] = [];
  for (let at = low; at < sorted.length; at++) {
    const term = sorted[at] ?? "";
    if (!term.startsWith(prefix)) break;
    if (term === prefix || !index.has(term)) continue;
    if (found.length === MAX_COMPLETIONS) return [];
    found.push(term);
  }
  return found;
}

/**
 * The query's terms, plus partial matches for its words the index lacks (`splitCompounds:
 * false` leaves out the words a compound joins, for ablations).
 */
export function withPartialMatches(
  query: readonly WeightedTerm[],
  index: IndexTerms,
  rankOf?: RankOf,
  splitCompounds = true,
): WeightedTerm[] {
  const out = [...query];
  const present = new Set(query.map((entry) => entry.term));
  const add = (term: string, weight: number, source: string) => {
    if (present.has(term) || !index.has(term)) return;
    present.add(term);
    out.push({ term, weight, source });
  };
  for (const { term, weight, source, exact } of query) {
    // Only the query's own words: a related word the index lacks is no clue; a quoted one is meant as written.
    if (term !== source || exact || index.has(term) || !/^[a-z]+$/.test(term)) continue;
    const pieces = rankOf && splitCompounds ? splitCompound(term, rankOf) : undefined;
    for (const piece of pieces ? termsOf(pieces.join(" ")) : [])
      add(piece, weight * PARTIAL_MATCH_WEIGHT, source);
    if (term.length >= MIN_PREFIX)
      for (const completion of completions(term, index))
        add(completion, weight * PARTIAL_MATCH_WEIGHT, source);
    // A word no dictionary knows either may be a slip ("recomend" → recommend).
    if (rankOf && rankOf(term) === undefined && !pieces)
      for (const corrected of termsOf(readUnknownWord(term, rankOf).join(" ")))
        add(corrected, weight * PARTIAL_MATCH_WEIGHT, source);
  }
  return out;
}
