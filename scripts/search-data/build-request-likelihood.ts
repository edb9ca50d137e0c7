// Regenerates `data/search/request-likelihood.tsv`: how likely each request word is given each
// word of the tool it asks for (request-likelihood/learn.ts), learned from every request of the
// training corpus (data/search/corpus: public MCP servers' tools, none of the servers of
// test/fixtures/catalog.json). Deterministic; under a minute:
//   node --import tsx scripts/search-data/build-request-likelihood.ts
import { corpusDocuments, loadCorpus, trainingPairs } from "../../bench/corpus-set.ts";
import { LIKELIHOOD_DEFAULTS, learnRequestLikelihood } from "./request-likelihood/learn.ts";
import { STEMMER, writeTable } from "./write-table.ts";

const corpus = loadCorpus();
const lines = learnRequestLikelihood(
  trainingPairs(corpus.queries),
  corpusDocuments(corpus.tools),
  LIKELIHOOD_DEFAULTS,
);
const { rounds, minProbability, perRequestWord } = LIKELIHOOD_DEFAULTS;
const bytes = writeTable(
  "request-likelihood.tsv",
  [
    "request-likelihood.tsv: how likely a request word is given a word of the tool it asks for, for src/search/request-likelihood.ts.",
    `Made by scripts/search-data/build-request-likelihood.ts from data/search/corpus: ${corpus.queries.length} requests for ${corpus.tools.length} tools of ${corpus.servers.length} public MCP servers.`,
    `IBM model 1, ${rounds} rounds of expectation maximisation; a tool word is kept when t ≥ ${minProbability}, ≤ ${perRequestWord} per request word.`,
    `Stems: ${STEMMER}.`,
    "Line: requestStem<TAB>share of all request words<TAB>t(it | no tool word)<TAB>toolStem:t … (t: t(request stem | tool stem)), likeliest first.",
  ],
  lines,
);
process.stderr.write(
  `wrote ${lines.length} request words (${bytes} bytes) to data/search/request-likelihood.tsv\n`,
);
