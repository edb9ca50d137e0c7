import { terms, words } from "./tokenize.ts";
import { memoByVocabulary } from "./vocabulary-memo.ts";

/**
 * Splitting identifiers written as one lowercase word ("datagov", "keywordexplorer",
 * "howtocook") into the words they join, so a tool named so is found by its words
 * ("government data", "keyword"). The split is the most probable sequence of vocabulary
 * words (a unigram model over the word vectors' frequency ranks, Zipf's law for the
 * probabilities), as word segmenters for hashtags and domain names do.
 */

/** Shortest piece ("how" + "to" + "cook"). */
const MIN_PIECE = 2;
/** Added to each piece's cost, so that fewer, longer words win over many short ones. */
const PIECE_COST = 3;
/** Only words this long are tried: shorter ones are rarely two words. */
const MIN_COMPOUND = 6;
/** A word at least this frequent (by rank) is a word, not a compound ("together", "notebook"). */
const COMMON_WORD_RANK = 30_000;
/**
 * Longest word read into other words, here and in unknown-words.ts: English words are shorter,
 * and both the split and the search for a slip cost the square of a word's length.
 */
export const MAX_COMPOUND = 40;

/** A word's frequency rank in the vocabulary (0 = most frequent), undefined if unknown. */
export type RankOf = (word: string) => number | undefined;

/** The words a compound joins, or undefined when it is not one (or is a word itself). */
export const splitCompound: (word: string, rankOf: RankOf) => readonly string[] | undefined =
  memoByVocabulary(segment);

function segment(word: string, rankOf: RankOf): string[] | undefined {
  if (word.length < MIN_COMPOUND || word.length > MAX_COMPOUND || !/^[a-z]+$/.test(word)) return undefined;
  const own = rankOf(word) ?? rankOf(word.replace(/e?s$/, ""));
  if (own !== undefined && own < COMMON_WORD_RANK) return undefined;
  // cost[i]: lowest cost of splitting word[0, i); a piece costs -log p ≈ log(rank + 10) (Zipf).
  const n = word.length;
  const cost = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Int32Array(n + 1).fill(-1);
  cost[0] = 0;
  for (let end = MIN_PIECE; end <= n; end++) {
    for (let start = 0; start <= end - MIN_PIECE; start++) {
      const before = cost[start] ?? Number.POSITIVE_INFINITY;
      if (!Number.isFinite(before)) continue;
      const rank = rankOf(word.slice(start, end));
      if (rank === undefined) continue;
      const total = before + Math.log(rank + 10) + PIECE_COST;
      if (total < (cost[end] ?? Number.POSITIVE_INFINITY)) {
        cost[end] = total;
        from[end] = start;
      }
    }
  }
  if (!Number.isFinite(cost[n] ?? Number.POSITIVE_INFINITY)) return undefined;
  const pieces: string[] = [];
  for (let end = n; end > 0; end = from[end] ?? 0) pieces.unshift(word.slice(from[end] ?? 0, end));
  // Mostly two-letter pieces are an acronym or a name read as words ("hdbcarpark" → hd bc ar park).
  const short = pieces.filter((piece) => piece.length === 2).length;
  return pieces.length > 1 && short * 2 <= pieces.length ? pieces : undefined;
}

/** The terms of the words joined in a text's compounds (none when `rankOf` is missing). */
export function compoundTerms(text: string, rankOf: RankOf | undefined): string[] {
  if (!rankOf) return [];
  const out: string[] = [];
  for (const word of words(text)) {
    const pieces = splitCompound(word, rankOf);
    if (pieces) out.push(...terms(pieces.join(" ")));
  }
  return out;
}
