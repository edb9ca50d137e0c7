import { WORD_FREQUENCY, WORD_FREQUENCY_LEVELS } from "./data/word-frequency.ts";

/**
 * How much a query word says about the tool wanted, by how common it is in English
 * at large. A small catalog's idf cannot tell a generic word ("provide", "current",
 * "details": rare in tool descriptions, common in any request) from a telling one;
 * English frequency (GloVe 6B's vocabulary order, see data/build-word-frequency.ts) can.
 * The most common words keep `MIN_SPECIFICITY` of their weight; words rarer than the
 * listed ones (rank 30,000 and beyond), and all non-English terms, keep all of it.
 */
export const MIN_SPECIFICITY = 0.1;

let table: Map<string, number> | undefined;

function load(): Map<string, number> {
  const map = new Map<string, number>();
  WORD_FREQUENCY.split("\n").forEach((line, level) => {
    // Middle of the level's log-rank band, scaled to 0..1.
    const value = Math.max(MIN_SPECIFICITY, (level + 0.5) / WORD_FREQUENCY_LEVELS);
    for (const term of line.split(" ")) if (term !== "") map.set(term, value);
  });
  return map;
}

/** Weight factor in `MIN_SPECIFICITY`..1 for a query stem: lower for more common English words. */
export function specificity(term: string): number {
  table ??= load();
  return table.get(term) ?? 1;
}
