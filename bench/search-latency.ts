// Search latency and memory at 1k / 10k / 50k tools: the fixture catalog (304 real tools)
// replicated with renamed servers, queried with a fixed set of short and long requests.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import MiniSearch from "minisearch";
import { toolDocument } from "../src/search/documents.ts";
import { LexicalSearchIndex } from "../src/search/lexical-index.ts";
import { defaultLexicon } from "../src/search/lexicon.ts";
import { defaultRequestLikelihood } from "../src/search/request-likelihood.ts";
import { defaultRequestPairs } from "../src/search/request-pairs.ts";
import { defaultSimilarTools } from "../src/search/similar-tools.ts";
import type { SearchDocument } from "../src/search/types.ts";
import { defaultWordVectors } from "../src/search/word-vectors.ts";
import { fixtureCatalog } from "../test/helpers/fixture-catalog.ts";
import { ms, percentile, printTable, progress } from "./table.ts";

export const CATALOG_SIZES = [1_000, 10_000, 50_000] as const;
/** Times each query is run per size (after one warm-up pass). */
const ROUNDS = 20;

/** Typical requests: short lookups and multi-step tasks. */
export const LATENCY_QUERIES: readonly string[] = [
  "read a file",
  "list directory contents",
  "create a github issue",
  "take a screenshot of the page",
  "search the knowledge graph for entities",
  "run a SQL query against postgres",
  "send a slack message to a channel",
  "get pod logs from kubernetes",
  "find documentation for a library",
  "click a button in the browser",
  "commit changes and push to the remote branch",
  "insert documents into a mongodb collection",
  "Open the dashboard page, fill in the login form, take a screenshot and save it to /tmp/shot.png",
  "Find the open pull requests of the repository, summarise their review comments and post a summary to Slack",
  "delete",
  "weather forecast for tomorrow",
];

/** `size` documents: copy n of every fixture server is named `<server>-<n>`. */
export function replicatedDocuments(size: number): SearchDocument[] {
  const tools = fixtureCatalog().tools;
  const docs: SearchDocument[] = [];
  for (let copy = 0; docs.length < size; copy++) {
    for (const tool of tools) {
      if (docs.length >= size) break;
      docs.push(toolDocument(copy === 0 ? tool.server : `${tool.server}-${copy}`, tool));
    }
  }
  return docs;
}

/** A `gc()` for steadier memory figures (node is started without --expose-gc). */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** JavaScript heap plus memory outside it (typed arrays, WebAssembly memory: the vectors live there). */
function memoryMb(): number {
  // Buffers of dropped objects are released after the collection that finds them dead.
  collectGarbage();
  collectGarbage();
  const { heapUsed, external } = process.memoryUsage();
  return (heapUsed + external) / 2 ** 20;
}

/**
 * Each engine's query times, sorted. The engines take turns query by query, so a slow spell of
 * this shared machine falls on all of them alike and their ratios hold within one run.
 */
function timeQueries(searches: readonly ((query: string) => unknown)[]): number[][] {
  for (const search of searches) for (const query of LATENCY_QUERIES) search(query);
  const times = searches.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of LATENCY_QUERIES) {
      searches.forEach((search, engine) => {
        const start = performance.now();
        search(query);
        times[engine]?.push(performance.now() - start);
      });
    }
  }
  return times.map((list) => list.sort((a, b) => a - b));
}

export async function benchSearchLatency(): Promise<void> {
  const rows: (string | number)[][] = [];
  // The shipped WordNet extract is parsed once per process, on the first index: timed apart.
  const lexiconStart = performance.now();
  defaultLexicon();
  const lexiconMs = performance.now() - lexiconStart;
  const vectorsStart = performance.now();
  defaultWordVectors();
  const vectorsMs = performance.now() - vectorsStart;
  const similarStart = performance.now();
  defaultSimilarTools();
  const similarMs = performance.now() - similarStart;
  const likelihoodBefore = memoryMb();
  const likelihoodStart = performance.now();
  defaultRequestLikelihood();
  const likelihoodMs = performance.now() - likelihoodStart;
  const likelihoodMb = memoryMb() - likelihoodBefore;
  const pairsBefore = memoryMb();
  const pairsStart = performance.now();
  defaultRequestPairs();
  const pairsMs = performance.now() - pairsStart;
  const pairsMb = memoryMb() - pairsBefore;
  for (const size of CATALOG_SIZES) {
    progress(`search latency: ${size} tools`);
    const docs = replicatedDocuments(size);
    const built: [engine: string, buildMs: number, memory: number, search: (query: string) => unknown][] = [];
    for (const [engine, options] of [
      ["toolscript", {}],
      ["toolscript, no request pairs", { requestPairs: false }],
      ["toolscript, no word vectors", { wordVectors: false }],
    ] as const) {
      const before = memoryMb();
      const start = performance.now();
      const index = new LexicalSearchIndex(options);
      index.add(docs);
      const buildMs = performance.now() - start;
      built.push([engine, buildMs, memoryMb() - before, (query) => index.search(query, { limit: 10 })]);
    }
    const miniBefore = memoryMb();
    const miniStart = performance.now();
    const mini = new MiniSearch<SearchDocument>({ fields: ["name", "description"], storeFields: [] });
    mini.addAll(docs);
    const miniBuildMs = performance.now() - miniStart;
    built.push([
      "minisearch BM25",
      miniBuildMs,
      memoryMb() - miniBefore,
      (query) => mini.search(query).slice(0, 10),
    ]);
    // BM25 apart: its searches, ten times as long, would evict the others' tables between turns.
    const times = [
      ...timeQueries(built.slice(0, -1).map(([, , , search]) => search)),
      ...timeQueries(built.slice(-1).map(([, , , search]) => search)),
    ];
    built.forEach(([engine, buildMs, memory], at) => {
      const own = times[at] ?? [];
      rows.push([
        size,
        engine,
        ms(buildMs),
        ms(percentile(own, 50)),
        ms(percentile(own, 95)),
        memory.toFixed(1),
      ]);
    });
  }
  printTable(
    `Tool search latency (${LATENCY_QUERIES.length} queries × ${ROUNDS} rounds per size, our engines taking turns query by query; WordNet extract loaded once in ${ms(lexiconMs)} ms, word vectors in ${ms(vectorsMs)} ms, similar tools in ${ms(similarMs)} ms, request likelihood in ${ms(likelihoodMs)} ms and ${likelihoodMb.toFixed(1)} MB, request pairs in ${ms(pairsMs)} ms and ${pairsMb.toFixed(1)} MB)`,
    ["tools", "engine", "build ms", "query p50 ms", "query p95 ms", "memory MB"],
    rows,
  );
}
