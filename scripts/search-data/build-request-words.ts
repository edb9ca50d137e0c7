// Regenerates `data/search/request-words.tsv`: which words requests use for what a tool's
// words name (request-words/learn.ts), learned from every request of the training corpus
// (data/search/corpus: public MCP servers' tools, none of the servers of
// test/fixtures/catalog.json). Deterministic; a few seconds:
//   node --import tsx scripts/search-data/build-request-words.ts
import { corpusDocuments, loadCorpus, trainingPairs } from "../../bench/corpus-set.ts";
import { LEARN_DEFAULTS, learnRequestWords } from "./request-words/learn.ts";
import { STEMMER, writeTable } from "./write-table.ts";

const corpus = loadCorpus();
const lines = learnRequestWords(trainingPairs(corpus.queries), corpusDocuments(corpus.tools), LEARN_DEFAULTS);
const { minPairs, minServers, minLift, perToolWord } = LEARN_DEFAULTS;
const bytes = writeTable(
  "request-words.tsv",
  [
    "request-words.tsv: the words requests use for what a tool's words name, for src/search/request-words.ts.",
    `Made by scripts/search-data/build-request-words.ts from data/search/corpus: ${corpus.queries.length} requests for ${corpus.tools.length} tools of ${corpus.servers.length} public MCP servers.`,
    `A pair is kept when it comes together in ≥${minPairs} requests for tools of ≥${minServers} servers with lift ≥${minLift}; ≤${perToolWord} per tool word.`,
    `Stems: ${STEMMER}.`,
    "Line: toolStem<TAB>requestStem:weight … (weight: P(request stem | tool stem) × ln lift), strongest first.",
  ],
  lines,
);
process.stderr.write(`wrote ${lines.length} tool words (${bytes} bytes) to data/search/request-words.tsv\n`);
