import { readTable } from "./tables.ts";
import { stem } from "./tokenize.ts";

/**
 * English index terms for Chinese text, so an English request finds a tool described in
 * Chinese and a Chinese request finds one described in English. Han runs are split into
 * dictionary words, and each word stands for the English words of its first CC-CEDICT
 * glosses (data/search/cedict.tsv; see scripts/search-data/build-cedict.ts for what is kept and
 * how it is encoded): the index takes their stems, the word vectors the words.
 */

/** Longest dictionary word, in characters (as in scripts/search-data/build-cedict.ts). */
const MAX_WORD_CHARS = 4;
const HAN = /\p{Script=Han}/u;
const HAN_RUN = /\p{Script=Han}+/gu;
/** A run without surrogates (nearly all) is sliced by code unit, the fast path. */
const SURROGATE = /[\ud800-\udfff]/;

interface Glossary {
  /**
   * Leading character → the rest of its line: each word's other characters and its English
   * words' numbers, still encoded. A line is parsed into `parsed` on its first lookup: most
   * catalogs' Chinese uses a few hundred leading characters of the 9,500, and the parsed form of
   * all of them would take 9 MB.
   */
  readonly lines: Map<string, string>;
  /** Leading character → its words' other characters → their English words' numbers (encoded). */
  readonly parsed: Map<string, Map<string, string>>;
  /** English word by number (one form per stem; "" for number 0). */
  readonly english: readonly string[];
  /** Their stems, each computed on first use. */
  readonly stems: (string | undefined)[];
}

let glossary: Glossary | undefined;

const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** A word's leading character (two code units for one outside the Basic Multilingual Plane). */
const headOf = (text: string) => text.slice(0, (text.codePointAt(0) ?? 0) > 0xffff ? 2 : 1);

/** The extract, read on first use: most catalogs hold no Chinese at all. */
function load(): Glossary {
  if (glossary) return glossary;
  const lines = new Map<string, string>();
  // Number 0 is no English word; the first line lists the others.
  let english: string[] | undefined;
  for (const line of readTable("cedict.tsv", "finds no English words for Chinese ones")) {
    if (!english) english = ["", ...line.split(" ")];
    else {
      const head = headOf(line);
      lines.set(head, line.slice(head.length));
    }
  }
  english ??= [""];
  glossary = { lines, parsed: new Map(), english, stems: new Array(english.length) };
  return glossary;
}

/** A line's words: for each, the rest of it (after the leading character) and its numbers. */
function parseLine(line: string): Map<string, string> {
  const words = new Map<string, string>();
  for (let at = 0; at < line.length; ) {
    let rest = at;
    while (rest < line.length && !isLetter(line.charCodeAt(rest))) rest++;
    let end = rest;
    while (end < line.length && isLetter(line.charCodeAt(end))) end++;
    if (end > rest) words.set(line.slice(at, rest), line.slice(rest, end));
    at = end;
  }
  return words;
}

/** A dictionary word's English words' numbers, encoded; undefined for no dictionary word. */
function lookUp(word: string): string | undefined {
  const { lines, parsed } = load();
  const head = headOf(word);
  let words = parsed.get(head);
  if (!words) {
    const line = lines.get(head);
    if (line === undefined) return undefined;
    words = parseLine(line);
    parsed.set(head, words);
    lines.delete(head);
  }
  return words.get(word.slice(head.length));
}

/** Encoded numbers (bijective base 26, leading digits a-z, last digit A-Z) into `out`. */
function decode(numbers: string, out: number[]): void {
  let value = 0;
  for (let i = 0; i < numbers.length; i++) {
    const code = numbers.charCodeAt(i);
    if (code >= 97) value = value * 26 + (code - 96);
    else {
      const number = value * 26 + (code - 65);
      // Number 0 is no English word: the Chinese word is listed only to split text at it.
      if (number > 0) out.push(number);
      value = 0;
    }
  }
}

/**
 * Splits a run of Han characters into words by forward maximum matching: at each
 * position the longest dictionary word (up to four characters), else one character.
 */
export function segmentHan(run: string): string[] {
  const chars = SURROGATE.test(run) ? Array.from(run) : undefined;
  const size = chars ? chars.length : run.length;
  const slice = (from: number, to: number) => (chars ? chars.slice(from, to).join("") : run.slice(from, to));
  const out: string[] = [];
  for (let at = 0; at < size; ) {
    let length = Math.min(MAX_WORD_CHARS, size - at);
    let word = slice(at, at + length);
    while (length > 1 && lookUp(word) === undefined) {
      length--;
      word = slice(at, at + length);
    }
    out.push(word);
    at += length;
  }
  return out;
}

/** The numbers of the English words glossing the Chinese words of a text, in text order. */
function glossNumbers(text: string): number[] {
  const out: number[] = [];
  for (const [run] of text.matchAll(HAN_RUN)) {
    for (const word of segmentHan(run)) {
      const numbers = lookUp(word);
      if (numbers !== undefined) decode(numbers, out);
    }
  }
  return out;
}

/**
 * The English stems glossing the Chinese words of a text, in text order and repeated as
 * the words are (to the index they are term frequencies); [] for text without Han.
 */
export function englishGlossTerms(text: string): string[] {
  if (!HAN.test(text)) return [];
  const { english, stems } = load();
  return glossNumbers(text).map((number) => {
    stems[number] ??= stem(english[number] ?? "");
    return stems[number];
  });
}

/** The English words glossing the Chinese words of a text (what the word vectors read); [] for text without Han. */
export function englishGlossWords(text: string): string[] {
  if (!HAN.test(text)) return [];
  const { english } = load();
  return glossNumbers(text).map((number) => english[number] ?? "");
}
