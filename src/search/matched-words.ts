import { englishGlossWords } from "./chinese-glosses.ts";
import { entityWords, impliedActions } from "./entities.ts";
import type { WeightedTerm } from "./query.ts";
import { terms } from "./tokenize.ts";
import { type WeighedTerm, wordCoverage } from "./word-coverage.ts";

/**
 * Which of the request's words a result matched, as the request writes them. An agent that
 * sees "matched: email" beside a tool can tell a result that fits from one that matched a side
 * word only, and search again in other words. A word reached through a related word (a
 * synonym, a word's beginning) counts as the request word it came from.
 */

/** Request words: runs of letters and digits (`GitHub` stays one word, `read_file` is two). */
const WRITTEN_WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The request words of a search's term groups, and where each is written in the request. */
export interface GroupWords {
  /** Per group of `Scored.groups`, its request word (undefined: none). */
  readonly words: readonly (string | undefined)[];
  /** Per request word, its rank in the request: answers list words in the request's order. */
  readonly order: ReadonlyMap<string, number>;
}

/**
 * The request word each term group stands for: the first word of `request` with the group's
 * source stem among its terms (`query` holds the analysed terms the groups were scored from).
 * A word the request only implies (`write` for a path it saves to, `email` for an address,
 * the English gloss of a Chinese word) has no written form: it stands for itself.
 */
export function groupWords(
  request: string,
  query: readonly WeightedTerm[],
  groups: readonly (readonly WeighedTerm[])[],
): GroupWords {
  const sourceOf = new Map(query.map(({ term, source }) => [term, source]));
  const wordOf = new Map<string, string>();
  const order = new Map<string, number>();
  const read = (text: string) => {
    for (const [word] of text.matchAll(WRITTEN_WORD)) {
      for (const term of terms(word)) {
        if (wordOf.has(term)) continue;
        wordOf.set(term, word);
        if (!order.has(word)) order.set(word, order.size);
      }
    }
  };
  read(request);
  const sources = groups.map((group) => sourceOf.get(group[0]?.term ?? ""));
  if (sources.some((source) => source !== undefined && !wordOf.has(source)))
    read(`${impliedActions(request)} ${entityWords(request)} ${englishGlossWords(request).join(" ")}`);
  const words = sources.map((source) => (source === undefined ? undefined : wordOf.get(source)));
  return { words, order };
}

/**
 * The request words whose group adds to the score of a document with `terms` at `weights`,
 * each once, in the request's order; none for a document found by meaning alone.
 */
export function matchedWords(
  { words, order }: GroupWords,
  groups: readonly (readonly WeighedTerm[])[],
  terms: readonly string[],
  weights: readonly number[],
): string[] {
  const coverage = wordCoverage(groups, terms, weights, 1);
  const matched = new Set<string>();
  coverage.forEach((gain, at) => {
    const word = words[at];
    if (gain > 0 && word !== undefined) matched.add(word);
  });
  return [...matched].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}
