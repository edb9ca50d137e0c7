// Regenerates `data/search/tool-vectors.bin`: the word vectors of `word-vectors.bin` refitted
// so that requests land near the tools that serve them (tool-vectors/fit.ts), on every request
// of the training corpus (data/search/corpus: public MCP servers' tools, none of the servers
// of test/fixtures/catalog.json). Only the refitted words are written; search reads them over
// the general table (src/search/word-vectors.ts). Deterministic; about half a minute:
//   node --import tsx scripts/search-data/build-tool-vectors.ts
import { writeFileSync } from "node:fs";
import { corpusDocuments, loadCorpus, seeded, trainingPairs } from "../../bench/corpus-set.ts";
import { encodeWordVectors, generalWordVectors } from "../../src/search/word-vectors.ts";
import { FIT_DEFAULTS, fitToolVectors } from "./tool-vectors/fit.ts";

/** The seed of the batch draws: one fixed seed, so the table is rebuilt byte for byte. */
const SEED = 23;

const vectors = generalWordVectors();
if (!vectors) throw new Error("build-tool-vectors: data/search/word-vectors.bin is needed");
const corpus = loadCorpus();
process.stderr.write(
  `fitting on ${corpus.queries.length} requests for ${corpus.tools.length} tools of ${corpus.servers.length} servers\n`,
);
let shown = -1;
const report = (percent: number) => {
  shown = percent;
  process.stderr.write(`  ${percent}%\n`);
};
const fitted = fitToolVectors(
  vectors,
  trainingPairs(corpus.queries),
  corpusDocuments(corpus.tools),
  seeded(SEED),
  FIT_DEFAULTS,
  (done, total) => {
    const percent = Math.floor((100 * done) / total);
    if (percent % 10 === 0 && percent !== shown) report(percent);
  },
);
const file = new URL("../../data/search/tool-vectors.bin", import.meta.url);
const bytes = encodeWordVectors(fitted.words, fitted.vectors, vectors.dimensions);
writeFileSync(file, bytes);
process.stderr.write(`wrote ${fitted.words.length} words (${bytes.length} bytes) to ${file.pathname}\n`);
