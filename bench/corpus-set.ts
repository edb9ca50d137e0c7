// The training corpus (data/search/corpus): real tool definitions of public MCP servers
// and requests written for their tools, as evaluation sets by request kind.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { TrainingPair } from "../scripts/search-data/tool-vectors/fit.ts";
import type { JsonSchema } from "../src/catalog/types.ts";
import type { SearchDocument } from "../src/search/types.ts";
import { type EvalQuery, type EvalTool, evalDocument } from "./search-quality.ts";

const CORPUS = new URL("../data/search/corpus/", import.meta.url);

export type RequestKind = "direct" | "paraphrase" | "task";
export const REQUEST_KINDS: readonly RequestKind[] = ["direct", "paraphrase", "task"];
/**
 * The folds the corpus's servers are dealt into: the benches search each with what was learned
 * from the others, and the pair weights' table learns from the same folds' rankings.
 */
export const CORPUS_FOLDS = 5;
/** Servers in the unseen check's catalog: the benches also search folds as catalogs this size. */
export const CHECK_SERVERS = 24;

export interface CorpusQuery extends EvalQuery {
  server: string;
  kind: RequestKind;
}

export interface Corpus {
  /** Server names (file stems), sorted. */
  servers: string[];
  tools: EvalTool[];
  queries: CorpusQuery[];
}

interface ServerFile {
  tools: Array<{ name: string; title?: string; description?: string; inputSchema?: JsonSchema }>;
}

interface RequestLine {
  tool: string;
  kind: RequestKind;
  query: string;
  also?: string[];
}

/** Every corpus server and, where written, its requests (`expected`: the tool and its equivalents). */
export function loadCorpus(): Corpus {
  const serverDir = new URL("servers/", CORPUS);
  const requestDir = new URL("requests/", CORPUS);
  const servers = readdirSync(serverDir)
    .filter((file) => file.endsWith(".json"))
    .map((file) => file.slice(0, -".json".length))
    .sort();
  const tools: EvalTool[] = [];
  const queries: CorpusQuery[] = [];
  for (const server of servers) {
    const file = JSON.parse(readFileSync(new URL(`${server}.json`, serverDir), "utf8")) as ServerFile;
    const names = new Set(file.tools.map((tool) => tool.name));
    for (const tool of file.tools) {
      const description = [tool.title, tool.description].filter(Boolean).join(". ");
      tools.push({ server, name: tool.name, description, inputSchema: tool.inputSchema });
    }
    const requests = new URL(`${server}.jsonl`, requestDir);
    if (!existsSync(requests)) continue;
    for (const line of readFileSync(requests, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const request = JSON.parse(line) as RequestLine;
      if (!names.has(request.tool)) continue;
      const expected = [request.tool, ...(request.also ?? []).filter((name) => names.has(name))];
      queries.push({
        server,
        kind: request.kind,
        query: request.query,
        expected: expected.map((name) => `${server}/${name}`),
      });
    }
  }
  return { servers, tools, queries };
}

/** A deterministic pseudo-random generator (mulberry32), so pools are the same every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `list` in an order drawn by `random` (Fisher–Yates). */
function shuffle<T>(list: readonly T[], random: () => number): T[] {
  const shuffled = [...list];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j] as T, shuffled[i] as T];
  }
  return shuffled;
}

/**
 * `servers` dealt into the fewest catalogs of at most `size` servers, near equal in size (seeded,
 * so the same every run): catalogs the size of the unseen check's (24 servers).
 */
export function serverCatalogs(servers: readonly string[], size: number, seed = 23): string[][] {
  return serverFolds(servers, Math.ceil(servers.length / size), seed);
}

/** The corpus tools as the index holds them, by id (`server/name`). */
export function corpusDocuments(tools: readonly EvalTool[]): Map<string, SearchDocument> {
  return new Map(tools.map((tool) => evalDocument(tool)).map((doc) => [doc.id, doc]));
}

/** The requests as training pairs for fitting (scripts/search-data/tool-vectors/fit.ts). */
export function trainingPairs(queries: readonly CorpusQuery[]): TrainingPair[] {
  return queries.map((query) => ({
    request: query.query,
    tool: query.expected[0] ?? "",
    also: query.expected.slice(1),
    server: query.server,
  }));
}

/** `count` splits of the servers, each server in exactly one (seeded, so the same every run). */
export function serverFolds(servers: readonly string[], count: number, seed = 7): string[][] {
  const folds: string[][] = Array.from({ length: count }, () => []);
  for (const [at, server] of shuffle(servers, seeded(seed)).entries()) folds[at % count]?.push(server);
  return folds.map((fold) => fold.sort());
}
