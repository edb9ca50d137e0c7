// Regenerates `data/search/request-pairs.tsv`: weights on (request stem, tool stem) pairs
// (request-pairs/learn.ts), learned from rankings of servers never learned from: the corpus's
// servers are dealt into the folds of bench/search-corpus.ts, each fold's requests ranked with the
// tables learned from the other folds (bench/fold-learning.ts), and the weights fitted on all those
// rankings. Deterministic; about twenty-five minutes:
//   node --import tsx scripts/search-data/build-request-pairs.ts
import { CORPUS_FOLDS, loadCorpus } from "../../bench/corpus-set.ts";
import { learnFolds, learnPairs } from "../../bench/fold-learning.ts";
import { PAIR_DESCRIPTION_WORDS } from "../../src/search/request-pairs.ts";
import { LEARNED_HEAD, PAIR_DEFAULTS } from "./request-pairs/learn.ts";
import { STEMMER, writeTable } from "./write-table.ts";

const corpus = loadCorpus();
const rankings = learnFolds(corpus, CORPUS_FOLDS, (message) =>
  process.stderr.write(`request pairs: ${message}\n`),
).flatMap((run) => run.rankings);
process.stderr.write(`request pairs: fitting on ${rankings.length} rankings\n`);
const lines = learnPairs(corpus, rankings);
const { minPositives, rounds, l2, minWeight } = PAIR_DEFAULTS;
const bytes = writeTable(
  "request-pairs.tsv",
  [
    "request-pairs.tsv: what a request word says for or against a tool word, for src/search/request-pairs.ts.",
    `Made by scripts/search-data/build-request-pairs.ts from data/search/corpus: ${corpus.queries.length} requests for ${corpus.tools.length} tools of ${corpus.servers.length} public MCP servers, each ranked (best ${LEARNED_HEAD}) with the tables learned from the other ${CORPUS_FOLDS - 1} of ${CORPUS_FOLDS} folds by server.`,
    `Softmax over each ranking's head, ${rounds} rounds of AdaGrad, L2 ${l2}; pairs of at least ${minPositives} requests with their tools; weights of at least ${minWeight}. A tool's words: its name's stems, then its first ${PAIR_DESCRIPTION_WORDS} other description stems (~stem).`,
    `Stems: ${STEMMER}.`,
    "Line: requestStem<TAB>toolStem:weight … (weight in a hit's score units, before the pair's share).",
  ],
  lines,
);
process.stderr.write(
  `wrote ${lines.length} request words (${bytes} bytes) to data/search/request-pairs.tsv\n`,
);
