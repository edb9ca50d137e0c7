import { type RankOf, splitCompound } from "./compounds.ts";

/**
 * Reading a word the word vectors lack instead of dropping it from a text's embedding: an
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
 * Ranks of the known words that stand for `word` (itself unknown), in that order of
 * preference: the word it inflects, else the most frequent common word one edit away (a
 * letter added, dropped, changed, or two swapped), else the words it joins; `[]` if none.
 */
export function readUnknownWord(word: string, rankOf: RankOf): number[] {
  if (!/^[a-z]+$/.test(word)) return [];
  // The most frequent reading ("automating" → automate, not automat).
  let inflected: number | undefined;
  for (const [ending, replacement] of INFLECTIONS) {
    if (!word.endsWith(ending) || word.length - ending.length < 3) continue;
    const rank = rankOf(word.slice(0, -ending.length) + replacement);
    if (rank !== undefined && (inflected === undefined || rank < inflected)) inflected = rank;
  }
  if (inflected !== undefined) return [inflected];
  // A slip first: a misspelt word also splits into junk pieces ("recomemnd" → reco me mnd).
  const corrected = word.length >= MIN_TYPO_LENGTH ? bestCorrection(word, rankOf) : undefined;
  if (corrected !== undefined) return [corrected];
  const pieces = splitCompound(word, rankOf);
  return pieces ? pieces.map((piece) => rankOf(piece) ?? -1).filter((rank) => rank >= 0) : [];
}

/** Rank of the most frequent common word one edit from `word`. */
function bestCorrection(word: string, rankOf: RankOf): number | undefined {
  let best: number | undefined;
  const consider = (candidate: string) => {
    const rank = rankOf(candidate);
    if (rank !== undefined && rank < MAX_CORRECTION_RANK && (best === undefined || rank < best)) best = rank;
  };
  for (let at = 0; at <= word.length; at++) {
    const head = word.slice(0, at);
    const rest = word.slice(at);
    for (const letter of LETTERS) consider(head + letter + rest);
    if (at === word.length) break;
    const tail = word.slice(at + 1);
    consider(head + tail);
    for (const letter of LETTERS) if (letter !== word[at]) consider(head + letter + tail);
    if (at + 1 < word.length) consider(head + word[at + 1] + word[at] + word.slice(at + 2));
  }
  return best;
}
