import stemmer from "wink-porter2-stemmer";
import { STOPWORDS } from "./stopwords.ts";
import { memoByWord } from "./vocabulary-memo.ts";

/** Han, Hiragana, Katakana and Hangul runs have no spaces: they are indexed as character bigrams. */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const NON_WORD = /[^\p{L}\p{N}]+/u;
/**
 * Text whose letters and digits are all ASCII (most tool metadata, typographic quotes and
 * dashes included) takes a faster path with the same result.
 */
const NON_ASCII = /[^\p{ASCII}]/u;
const NON_ASCII_WORD_CHAR = /(?=[^\p{ASCII}])[\p{L}\p{N}\p{M}]/u;
const ASCII_CAMEL = /([a-z0-9])([A-Z])/g;
const ASCII_ACRONYM = /([A-Z]+)([A-Z][a-z])/g;
/** An acronym's plural ("PRs", "APIs", "IDs") is the acronym, not a capital and a word ("P Rs"). */
const ASCII_ACRONYM_PLURAL = /([A-Z]{2,})s(?![a-z])/g;
const ASCII_WORD = /[a-z0-9]+/g;
/** Two words joined by a hyphen ("to-do", "How-To"), of which the function words are read. */
const HYPHENATED_PAIR = /(?<![\p{L}\p{N}-])(\p{L}+)-(\p{L}+)(?![\p{L}\p{N}-])/gu;

/**
 * A hyphenated compound of function words is one word: "to-do" and "to-dos" are "todo" and
 * "todos", "how-to" is "howto", where apart they would be nothing but function words.
 */
function joinFunctionWordCompounds(text: string): string {
  if (!text.includes("-")) return text;
  return text.replace(HYPHENATED_PAIR, (pair, first: string, second: string) => {
    const last = second.toLowerCase();
    const singular = last.length > 2 && last.endsWith("s") ? last.slice(0, -1) : last;
    return STOPWORDS.has(first.toLowerCase()) && (STOPWORDS.has(last) || STOPWORDS.has(singular))
      ? `${first}${second}`.toLowerCase()
      : pair;
  });
}

/**
 * Splits identifiers into words: `getFileInfo` → `get File Info`, `HTMLParser` → `HTML Parser`,
 * `list_s3Buckets` → `list s3 Buckets`, `listPRs` → `list PR`; separators (`_`, `-`, `.`, `/`)
 * become spaces.
 */
export function splitIdentifiers(text: string): string {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}{2,})s(?!\p{Ll})/gu, "$1")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/[_\-./:]+/g, " ");
}

function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const grams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) grams.push(`${chars[i]}${chars[i + 1]}`);
  return grams;
}

/** Lowercase words of a text, identifiers split, CJK as bigrams; nothing removed. */
export function words(raw: string): string[] {
  const text = joinFunctionWordCompounds(raw);
  if (!NON_ASCII.test(text) || !NON_ASCII_WORD_CHAR.test(text)) {
    const split = text
      .replace(ASCII_CAMEL, "$1 $2")
      .replace(ASCII_ACRONYM_PLURAL, "$1")
      .replace(ASCII_ACRONYM, "$1 $2")
      .toLowerCase();
    return split.match(ASCII_WORD) ?? [];
  }
  const out: string[] = [];
  const latin = splitIdentifiers(text).replace(CJK_RUN, (run) => {
    out.push(...cjkBigrams(run));
    return " ";
  });
  for (const word of latin.toLowerCase().split(NON_WORD)) if (word !== "") out.push(word);
  return out;
}

/**
 * Longest word stemmed. English words are shorter; the stemmer's time grows with the square of
 * a word's length (a 10,000-letter "word" takes a second), so a longer run is kept as it is.
 */
export const MAX_STEMMED_LENGTH = 64;

/**
 * Porter2 (Snowball English) stem of a lowercase word, cached (the same few thousand words
 * recur). Porter2 keeps apart what the original Porter algorithm conflates: "news" and "new",
 * "general" and "generate", "community" and "communication".
 */
export function stem(word: string): string {
  // Not cached either: a run that long is no word that recurs.
  return word.length > MAX_STEMMED_LENGTH ? word : cachedStem(word);
}

const cachedStem = memoByWord((word: string) =>
  /^[a-z]+$/.test(word) ? keepDouble(word, stemmer(word)) : word,
);

/**
 * Words whose double last letter is their own: Porter2 undoubles it with the inflection, so
 * "adding" became "ad" (an advert) beside "add", and "staffing" "staf" beside "staff". English
 * doubles no "f" to inflect a word, so every "ff" is kept; other letters (running → run) only
 * for these.
 */
const OWN_DOUBLE = new Set(["add", "egg", "ebb", "err", "boycott"]);

function keepDouble(word: string, stemmed: string): string {
  const last = stemmed.at(-1) ?? "";
  const doubled = stemmed + last;
  return word.length > doubled.length && word.startsWith(doubled) && (last === "f" || OWN_DOUBLE.has(doubled))
    ? doubled
    : stemmed;
}

/** A word worth indexing: not a stop word, not a lone letter or digit. */
export function isContentWord(word: string): boolean {
  if (STOPWORDS.has(word)) return false;
  return word.length > 1 || word.charCodeAt(0) > 0x7f;
}

/** The index terms of a text: content words, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) if (isContentWord(word)) out.push(stem(word));
  return out;
}

const LETTERS = /^[a-z]+$/;

/**
 * A term of plain letters: the learned tables relate only these, since numbers ("100 results")
 * say nothing of one another.
 */
export function isWordTerm(term: string): boolean {
  return LETTERS.test(term);
}

/** The index terms of a text that are plain words, as the learned tables hold them. */
export function wordTerms(text: string): string[] {
  return terms(text).filter(isWordTerm);
}
