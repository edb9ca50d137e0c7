import type { RankOf } from "./compounds.ts";

/** Entries kept per vocabulary before a memo starts over. */
const MEMO_MAX = 50_000;

/**
 * `read(word, rankOf)` remembered per vocabulary (the `rankOf` function identifies it): a
 * catalog repeats its identifiers' words and a user's requests repeat theirs, so each word
 * is worked out once. Bounded: past `MEMO_MAX` words the memo starts over.
 */
export function memoByVocabulary<T>(
  read: (word: string, rankOf: RankOf) => T,
): (word: string, rankOf: RankOf) => T {
  const memos = new WeakMap<RankOf, Map<string, T>>();
  return (word, rankOf) => {
    let memo = memos.get(rankOf);
    if (!memo) {
      memo = new Map();
      memos.set(rankOf, memo);
    }
    if (memo.has(word)) return memo.get(word) as T;
    if (memo.size >= MEMO_MAX) memo.clear();
    const value = read(word, rankOf);
    memo.set(word, value);
    return value;
  };
}

/** `read(word)` remembered, for a reading that depends on the word alone; bounded as above. */
export function memoByWord<T>(read: (word: string) => T): (word: string) => T {
  const memo = new Map<string, T>();
  return (word) => {
    if (memo.has(word)) return memo.get(word) as T;
    if (memo.size >= MEMO_MAX) memo.clear();
    const value = read(word);
    memo.set(word, value);
    return value;
  };
}
