// Regenerates `data/search/domain-terms.tsv` from its hand-written parts in
// `data/search/domain-terms/*.tsv` (abbreviations, jargon, everyday phrases, products): checks
// every line, says what is wrong where, drops entries that add nothing (a phrase whose meaning
// shares all its words) and repeats, and merges a phrase's meanings across parts. Seconds:
//   node --import tsx scripts/search-data/build-domain-terms.ts
import { readdirSync, readFileSync } from "node:fs";
import { KINDS, MAX_PHRASE_WORDS, phraseKey } from "../../src/search/domain-terms.ts";
import { terms } from "../../src/search/tokenize.ts";
import { STEMMER, writeTable } from "./write-table.ts";

const PARTS = new URL("../../data/search/domain-terms/", import.meta.url);
const MAX_MEANINGS = 6;

/**
 * Entries keyed by kind and the phrase as the table matches it (`phraseKey`, so "embeds" and
 * "emb" stay apart): the phrase as first written, its meanings in order.
 */
const entries = new Map<string, { kind: string; left: string; right: string[]; part: string }>();
const problems: string[] = [];
let dropped = 0;

/** Adds one line of a part to `entries`, or says what is wrong with it. */
function readLine(line: string, part: string, where: string): void {
  if (line.trim() === "" || line.startsWith("#")) return;
  const [kind, left, right, ...extra] = line.split("\t");
  if (extra.length > 0 || left === undefined || right === undefined) {
    problems.push(`${where}: want KIND<TAB>LEFT<TAB>RIGHT, got ${JSON.stringify(line)}`);
    return;
  }
  if (kind === undefined || !KINDS.has(kind)) {
    problems.push(`${where}: kind ${JSON.stringify(kind)} is none of ${[...KINDS].join(" ")}`);
    return;
  }
  const phrase = left.trim().toLowerCase();
  const matched = phraseKey(phrase);
  const length = matched === "" ? 0 : matched.split(" ").length;
  if (length === 0 || length > MAX_PHRASE_WORDS || phrase.includes("|")) {
    problems.push(`${where}: LEFT must be one phrase of 1 to ${MAX_PHRASE_WORDS} words`);
    return;
  }
  const own = new Set(terms(phrase));
  const meanings = right
    .split("|")
    .map((meaning) => meaning.trim().toLowerCase())
    // A meaning all of whose words the phrase says already adds nothing.
    .filter((meaning) => meaning !== "" && terms(meaning).some((term) => !own.has(term)));
  if (meanings.length === 0) {
    dropped++;
    return;
  }
  const key = `${kind} ${matched}`;
  const entry = entries.get(key);
  if (!entry) entries.set(key, { kind, left: phrase, right: meanings, part });
  else for (const meaning of meanings) if (!entry.right.includes(meaning)) entry.right.push(meaning);
}

const parts = readdirSync(PARTS).filter((name) => name.endsWith(".tsv"));
for (const part of parts.sort()) {
  const lines = readFileSync(new URL(part, PARTS), "utf8").split("\n");
  lines.forEach((line, at) => {
    readLine(line, part, `data/search/domain-terms/${part}:${at + 1}`);
  });
}
if (problems.length > 0) {
  process.stderr.write(`${problems.join("\n")}\n${problems.length} problems; nothing written\n`);
  process.exit(1);
}

const lines: string[] = [];
const counts = new Map<string, number>();
for (const { kind, left, right, part } of [...entries.values()].sort(
  (a, b) => a.part.localeCompare(b.part) || a.left.localeCompare(b.left),
)) {
  lines.push(`${kind}\t${left}\t${right.slice(0, MAX_MEANINGS).join("|")}`);
  counts.set(part, (counts.get(part) ?? 0) + 1);
}
const bytes = writeTable(
  "domain-terms.tsv",
  [
    "domain-terms.tsv: what requests call by other names than tools do, for src/search/domain-terms.ts.",
    `Made by scripts/search-data/build-domain-terms.ts from data/search/domain-terms/ (${[...counts].map(([part, count]) => `${part} ${count}`).join(", ")}).`,
    "Written for ToolScript from general knowledge of software and everyday tasks (MIT, as ToolScript); not learned from any catalog or request set.",
    `Phrases are matched on their words' stems at load time: ${STEMMER}.`,
    "Line: KIND<TAB>phrase<TAB>meaning|meaning…; KIND: '>' a request saying the phrase wants what tools call the meanings,",
    "':' the phrase (a product) is a kind of the meanings, in requests and tools; '=' the same thing, both ways, in requests and tools.",
  ],
  lines,
);
process.stderr.write(
  `wrote ${lines.length} phrases (${bytes} bytes) to data/search/domain-terms.tsv; ${dropped} entries added nothing\n`,
);
