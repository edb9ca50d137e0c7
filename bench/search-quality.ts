// Tool-search quality on public sets (bench/data/tool-search, see its README): S@1, S@5 and
// MRR@10 of our engine next to minisearch BM25, both computed in this run.
import { readFileSync } from "node:fs";
import MiniSearch from "minisearch";
import type { JsonSchema } from "../src/catalog/types.ts";
import { toolDocument } from "../src/search/documents.ts";
import { LexicalSearchIndex } from "../src/search/lexical-index.ts";
import { STOPWORDS } from "../src/search/stopwords.ts";
import type { SearchDocument, SearchIndex } from "../src/search/types.ts";
import { ABLATIONS } from "./search-ablations.ts";
import { percentile, printTable, progress } from "./table.ts";

export interface EvalTool {
  server: string;
  name: string;
  description?: string;
  inputSchema?: JsonSchema;
}

export interface EvalQuery {
  query: string;
  expected: string[];
}

export interface EvalSet {
  name: string;
  tools: EvalTool[];
  queries: EvalQuery[];
}

export interface QualityResult {
  s1: number;
  s5: number;
  mrr10: number;
  p50Ms: number;
  p95Ms: number;
}

/** Evaluation sets shipped under bench/data/tool-search. */
export const EVAL_SETS = ["livemcpbench", "metatool"] as const;

export function loadEvalSet(name: string): EvalSet {
  const read = (file: string): unknown =>
    JSON.parse(readFileSync(new URL(`./data/tool-search/${name}/${file}`, import.meta.url), "utf8"));
  return { name, tools: read("tools.json") as EvalTool[], queries: read("queries.json") as EvalQuery[] };
}

/** A search engine under test: the ids (`server/name`) of its top 10 for a query. */
export type Ranker = (query: string) => string[];

export function evaluate(queries: readonly EvalQuery[], rank: Ranker): QualityResult {
  let s1 = 0;
  let s5 = 0;
  let mrr = 0;
  const times: number[] = [];
  for (const { query, expected } of queries) {
    const start = performance.now();
    const ids = rank(query);
    times.push(performance.now() - start);
    const wanted = new Set(expected);
    const at = ids.slice(0, 10).findIndex((id) => wanted.has(id));
    if (at === 0) s1++;
    if (at >= 0 && at < 5) s5++;
    if (at >= 0) mrr += 1 / (at + 1);
  }
  times.sort((a, b) => a - b);
  const n = Math.max(1, queries.length);
  return {
    s1: s1 / n,
    s5: s5 / n,
    mrr10: mrr / n,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
  };
}

/** An evaluation tool as the index holds it (id `server/name`). */
export function evalDocument(tool: EvalTool): SearchDocument {
  return toolDocument(tool.server, {
    name: tool.name,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema ?? { type: "object" },
  });
}

export function ourRanker(tools: readonly EvalTool[], index: SearchIndex = new LexicalSearchIndex()): Ranker {
  index.add(tools.map(evalDocument));
  return (query) => index.search(query, { limit: 10 }).map((hit) => hit.id);
}

/**
 * The baseline of the eval README: minisearch BM25 (its defaults) over the tool name,
 * server name, description and parameter names, with the same stop words as ours.
 */
export function miniSearchRanker(tools: readonly EvalTool[]): Ranker {
  const mini = new MiniSearch<{
    id: string;
    server: string;
    name: string;
    description: string;
    params: string;
  }>({
    fields: ["name", "server", "description", "params"],
    storeFields: [],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOPWORDS.has(lower) ? null : lower;
    },
  });
  mini.addAll(
    tools.map((tool) => {
      const properties = tool.inputSchema?.properties;
      const params = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
      return {
        id: `${tool.server}/${tool.name}`,
        server: tool.server.replace(/[_-]/g, " "),
        name: tool.name.replace(/[_-]/g, " "),
        description: tool.description ?? "",
        params: params.join(" "),
      };
    }),
  );
  return (query) =>
    mini
      .search(query)
      .slice(0, 10)
      .map((hit) => String(hit.id));
}

const fixed = (value: number) => value.toFixed(3);

export async function benchSearchQuality(): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const name of EVAL_SETS) {
    const set = loadEvalSet(name);
    progress(`search quality: ${name} (${set.tools.length} tools, ${set.queries.length} queries)`);
    const engines: [string, Ranker][] = [
      ["minisearch BM25", miniSearchRanker(set.tools)],
      ["toolscript", ourRanker(set.tools)],
      ...ABLATIONS.map(([ablation, options]): [string, Ranker] => [
        `toolscript, ${ablation}`,
        ourRanker(set.tools, new LexicalSearchIndex(options())),
      ]),
    ];
    for (const [engine, ranker] of engines) {
      const result = evaluate(set.queries, ranker);
      rows.push([
        name,
        engine,
        set.queries.length,
        fixed(result.s1),
        fixed(result.s5),
        fixed(result.mrr10),
        result.p50Ms.toFixed(3),
        result.p95Ms.toFixed(3),
      ]);
    }
  }
  printTable(
    "Tool search quality (every query of each set, against that set's whole catalog)",
    ["set", "engine", "queries", "S@1", "S@5", "MRR@10", "p50 ms", "p95 ms"],
    rows,
  );
}
