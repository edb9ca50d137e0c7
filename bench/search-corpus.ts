// `npm run bench -- search-corpus`: tool search on the training corpus (data/search/corpus),
// by request kind: S@5 over catalogs of 24 servers drawn from it (the size of the unseen
// check) and over the whole corpus. Nothing here is learned yet, so every server is unseen.
import { LexicalSearchIndex } from "../src/search/lexical-index.ts";
import { type CorpusQuery, loadCorpus, REQUEST_KINDS, serverPools } from "./corpus-set.ts";
import { ABLATIONS } from "./search-ablations.ts";
import { type EvalTool, evaluate, miniSearchRanker, ourRanker, type Ranker } from "./search-quality.ts";
import { printTable, progress } from "./table.ts";

const POOLS = 8;
const POOL_SERVERS = 24;

type Engine = [name: string, make: (tools: readonly EvalTool[]) => Ranker];

const ENGINES: Engine[] = [
  ["minisearch BM25", miniSearchRanker],
  ["toolscript", (tools) => ourRanker(tools)],
  ...ABLATIONS.map(
    ([ablation, options]): Engine => [
      `toolscript, ${ablation}`,
      (tools) => ourRanker(tools, new LexicalSearchIndex(options())),
    ],
  ),
];

/** S@5 by kind (and overall) of `engine` over `tools`, for the queries whose server is among them. */
function scores(engine: Engine, tools: readonly EvalTool[], queries: readonly CorpusQuery[]): number[] {
  const ranker = engine[1](tools);
  const kinds = REQUEST_KINDS.map(
    (kind) =>
      evaluate(
        queries.filter((query) => query.kind === kind),
        ranker,
      ).s5,
  );
  return [...kinds, evaluate(queries, ranker).s5];
}

export async function benchSearchCorpus(): Promise<void> {
  const corpus = loadCorpus();
  const counts = REQUEST_KINDS.map((kind) => corpus.queries.filter((query) => query.kind === kind).length);
  progress(
    `search corpus: ${corpus.servers.length} servers, ${corpus.tools.length} tools, ${corpus.queries.length} requests`,
  );
  const pools = serverPools(corpus.servers, POOLS, POOL_SERVERS);
  const rows: string[][] = [];
  for (const engine of ENGINES) {
    progress(`search corpus: ${engine[0]}`);
    const sums = [0, 0, 0, 0];
    for (const pool of pools) {
      const inPool = new Set(pool);
      const tools = corpus.tools.filter((tool) => inPool.has(tool.server));
      const queries = corpus.queries.filter((query) => inPool.has(query.server));
      scores(engine, tools, queries).forEach((score, i) => {
        sums[i] = (sums[i] ?? 0) + score / pools.length;
      });
    }
    const whole = scores(engine, corpus.tools, corpus.queries);
    rows.push([
      engine[0],
      ...sums.map((s) => s.toFixed(3)),
      whole[1]?.toFixed(3) ?? "",
      whole[3]?.toFixed(3) ?? "",
    ]);
  }
  printTable(
    `Search on the training corpus: S@5 by request kind (${counts.join(" / ")} direct / paraphrase / task requests), mean of ${POOLS} catalogs of ${POOL_SERVERS} servers, then the whole corpus (${corpus.tools.length} tools)`,
    ["engine", "direct", "paraphrase", "task", "all", "whole: paraphrase", "whole: all"],
    rows,
  );
}
