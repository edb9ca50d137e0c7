// Regenerates `data/search/similar-tools.tsv`: every tool of the training corpus
// (data/search/corpus: public MCP servers' tools, none of the servers of
// test/fixtures/catalog.json) with its embedding by the shipped vectors and the stems its
// requests use (similar-tools/learn.ts), for src/search/similar-tools.ts. Run after
// build-tool-vectors.ts, whose table the embeddings are made with. Deterministic; seconds:
//   node --import tsx scripts/search-data/build-similar-tools.ts
import { corpusDocuments, loadCorpus, trainingPairs } from "../../bench/corpus-set.ts";
import { defaultWordVectors } from "../../src/search/word-vectors.ts";
import { learnSimilarTools, STEMS_PER_TOOL } from "./similar-tools/learn.ts";
import { STEMMER, writeTable } from "./write-table.ts";

const vectors = defaultWordVectors();
if (!vectors)
  throw new Error("build-similar-tools: data/search/word-vectors.bin and tool-vectors.bin are needed");
const corpus = loadCorpus();
const lines = learnSimilarTools(trainingPairs(corpus.queries), corpusDocuments(corpus.tools), vectors);
const bytes = writeTable(
  "similar-tools.tsv",
  [
    "similar-tools.tsv: known tools and the words their requests use, for src/search/similar-tools.ts.",
    `Made by scripts/search-data/build-similar-tools.ts from data/search/corpus: ${corpus.queries.length} requests for ${corpus.tools.length} tools of ${corpus.servers.length} public MCP servers.`,
    "Embeddings: the tool's server, name, title and description by the shipped vectors (word-vectors.bin with tool-vectors.bin over it), int8 with one scale per tool.",
    `Stem weight: (requests using it / √(stems of the tool's requests)) × ln(requests / requests using it); ≤${STEMS_PER_TOOL} per tool, strongest first.`,
    `Stems: ${STEMMER}.`,
    "Line: server/tool<TAB>scale<TAB>base64 int8 components<TAB>stem:weight …",
  ],
  lines,
);
process.stderr.write(`wrote ${lines.length} known tools (${bytes} bytes) to data/search/similar-tools.tsv\n`);
