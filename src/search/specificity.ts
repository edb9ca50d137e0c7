import { readTable } from "./tables.ts";

/**
 * How much a query word says about the tool wanted, by how common it is in English
 * at large. A small catalog's idf cannot tell a generic word ("provide", "current",
 * "details": rare in tool descriptions, common in any request) from a telling one;
 * English frequency (GloVe 6B's vocabulary order: data/search/word-frequency.tsv, made by
 * scripts/search-data/build-word-frequency.ts) can.
 * The most common words keep `MIN_SPECIFICITY` of their weight; words rarer than the
 * listed ones (rank 30,000 and beyond), and all non-English terms, keep all of it.
 */
export const MIN_SPECIFICITY = 0.1;

let table: Map<string, number> | undefined;

/** `level<TAB>stem stem …` lines, one per level, all listed: the number of lines is the number of levels. */
function load(): Map<string, number> {
  const levels: string[][] = [];
  for (const line of readTable("word-frequency.tsv", "weighs no query word by its English frequency")) {
    const tab = line.indexOf("\t");
    const level = Number(line.slice(0, tab));
    if (tab > 0 && Number.isInteger(level) && level >= 0) levels[level] = line.slice(tab + 1).split(" ");
  }
  const map = new Map<string, number>();
  levels.forEach((terms, level) => {
    // Middle of the level's log-rank band, scaled to 0..1.
    const value = Math.max(MIN_SPECIFICITY, (level + 0.5) / levels.length);
    for (const term of terms) if (term !== "") map.set(term, value);
  });
  return map;
}

/** Weight factor in `MIN_SPECIFICITY`..1 for a query stem: lower for more common English words. */
export function specificity(term: string): number {
  table ??= load();
  return table.get(term) ?? 1;
}
