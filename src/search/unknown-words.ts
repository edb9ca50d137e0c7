import { MAX_COMPOUND, type RankOf, splitCompound } from "./compounds.ts";
import { memoByVocabulary } from "./vocabulary-memo.ts";

/**
 * Reading a word the word vectors lack instead of dropping it from a text's embedding (and,
 * for a slip in a request, instead of matching nothing: see partial-matches.ts): an
 * inflection of a known word ("horoscopes" → horoscope), words joined as one ("cashflow" →
 * cash flow), or a slip of the keyboard ("strology" → astrology, "povides" → provides). Tool
 * descriptions are written fast and read by nobody before the agent: a misspelt key word
 * would otherwise make a tool unfindable by meaning.
 */

/** Shorter unknown words are more often names or abbreviations than typos. */
export const MIN_TYPO_LENGTH = 6;
/** A correction is a common word: rarer ones one letter away are as likely coincidences. */
export const MAX_CORRECTION_RANK = 30_000;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * Endings an unknown word may carry on a known one, and what replaces them
 * ("timezones" → timezone, "categories" → category, "maintainers" → maintain).
 */
const INFLECTIONS: readonly (readonly [string, string])[] = [
  ["ies", "y"],
  ["es", ""],
  ["s", ""],
  ["ed", ""],
  ["ed", "e"],
  ["ing", ""],
  ["ing", "e"],
  ["ly", ""],
  ["ers", ""],
  ["er", ""],
];

/**
 * The known words that stand for `word` (itself unknown), in that order of
 * preference: the word it inflects, else the most frequent common word one edit away (a
 * letter added, dropped, changed, or two swapped), else the words it joins; `[]` if none.
 */
export const readUnknownWord: (word: string, rankOf: RankOf) => readonly string[] =
  memoByVocabulary(readWord);

function readWord(word: string, rankOf: RankOf): readonly string[] {
  if (word.length > MAX_COMPOUND || !/^[a-z]+$/.test(word)) return [];
  // The most frequent reading ("automating" → automate, not automat).
  const inflected = mostFrequent(
    INFLECTIONS.filter(([ending]) => word.endsWith(ending) && word.length - ending.length >= 3).map(
      ([ending, replacement]) => word.slice(0, -ending.length) + replacement,
    ),
    rankOf,
  );
  if (inflected !== undefined) return [inflected];
  // A slip first: a misspelt word also splits into junk pieces ("recomemnd" → reco me mnd).
  const corrected = word.length >= MIN_TYPO_LENGTH ? bestCorrection(word, rankOf) : undefined;
  if (corrected !== undefined) return [corrected];
  return splitCompound(word, rankOf) ?? [];
}

/** The most frequent of `candidates` the vocabulary knows, if any ranks below `belowRank`. */
function mostFrequent(
  candidates: Iterable<string>,
  rankOf: RankOf,
  belowRank = Infinity,
): string | undefined {
  let best: string | undefined;
  let bestRank = belowRank;
  for (const candidate of candidates) {
    const rank = rankOf(candidate);
    if (rank !== undefined && rank < bestRank) {
      best = candidate;
      bestRank = rank;
    }
  }
  return best;
}

/** The most frequent common word one edit from `word`. */
function bestCorrection(word: string, rankOf: RankOf): string | undefined {
  return mostFrequent(edits(word), rankOf, MAX_CORRECTION_RANK);
}

/** Every string one edit from `word`: a letter added, dropped, changed, or two swapped. */
function* edits(word: string): Generator<string> {
  for (let at = 0; at <= word.length; at++) {
    const head = word.slice(0, at);
    const rest = word.slice(at);
    for (const letter of LETTERS) yield head + letter + rest;
    if (at === word.length) return;
    const tail = word.slice(at + 1);
    yield head + tail;
    for (const letter of LETTERS) if (letter !== word[at]) yield head + letter + tail;
    if (at + 1 < word.length) yield head + word[at + 1] + word[at] + word.slice(at + 2);
  }
}
