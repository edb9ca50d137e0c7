// The final unseen check of tool search (issue #23): requests written for the 24 servers of the
// fixture catalog, which nothing in search learns from or is tuned on, asked through
// `search_tools` of a real `toolscript serve` with the catalog's servers connected, by a stock
// SDK client. Prints top-1, top-5 and MRR@10 by request kind, with minisearch BM25 over the same
// tools in the same run. The requests are a measuring stick only (bench/data/search-unseen/README.md).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ToolSearchResult } from "../src/search/index.ts";
import { fixtureCatalog, fixtureServerConfigs } from "../test/helpers/fixture-catalog.ts";
import { connectServe, textOf, untilServersSettled } from "../test/helpers/mcp-client.ts";
import { REPO_ROOT, tempDir } from "../test/helpers/servers.ts";
import { REQUEST_KINDS, type RequestKind } from "./corpus-set.ts";
import { type EvalQuery, evaluate, miniSearchRanker, type Ranker } from "./search-quality.ts";
import { printTable, progress } from "./table.ts";

const REQUESTS = join(REPO_ROOT, "bench/data/search-unseen");

interface UnseenRequest extends EvalQuery {
  kind: RequestKind;
  /** The tool the request was written for, as `server/tool`; `expected` adds its equivalents. */
  tool: string;
}

/** Every request file's lines; a malformed line, or a tool the catalog lacks, is an error naming its line. */
function loadRequests(known: ReadonlySet<string>): UnseenRequest[] {
  const requests: UnseenRequest[] = [];
  for (const file of readdirSync(REQUESTS)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()) {
    const server = file.slice(0, -".jsonl".length);
    readFileSync(join(REQUESTS, file), "utf8")
      .split("\n")
      .forEach((line, index) => {
        if (line.trim() !== "") requests.push(parseRequest(server, line, `${file}:${index + 1}`, known));
      });
  }
  return requests;
}

function parseRequest(
  server: string,
  line: string,
  where: string,
  known: ReadonlySet<string>,
): UnseenRequest {
  let parsed: { tool?: unknown; kind?: unknown; query?: unknown; also?: unknown };
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new Error(`${where}: not JSON: ${(error as Error).message}`);
  }
  const { tool, kind, query, also = [] } = parsed;
  if (typeof tool !== "string" || typeof query !== "string" || query.trim() === "")
    throw new Error(`${where}: "tool" and "query" must be non-empty strings`);
  if (!REQUEST_KINDS.includes(kind as RequestKind))
    throw new Error(`${where}: unknown kind ${JSON.stringify(kind)}`);
  if (!Array.isArray(also) || !also.every((id) => typeof id === "string"))
    throw new Error(`${where}: "also" must be an array of "server/tool" strings`);
  const expected = [`${server}/${tool}`, ...also];
  const unknown = expected.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new Error(`${where}: not in the catalog: ${unknown.join(", ")}`);
  return { kind: kind as RequestKind, query, tool: `${server}/${tool}`, expected };
}

/** Each distinct query's top 10 `server/tool` ids from `search_tools` of the running gateway. */
async function searchAll(client: Client, queries: readonly string[]): Promise<Map<string, string[]>> {
  const ranks = new Map<string, string[]>();
  for (const query of queries) {
    if (ranks.has(query)) continue;
    const answer = await client.callTool({ name: "search_tools", arguments: { query, limit: 10 } });
    if (answer.isError) throw new Error(`search_tools failed on ${JSON.stringify(query)}: ${textOf(answer)}`);
    const { results } = answer.structuredContent as { results: ToolSearchResult[] };
    ranks.set(
      query,
      results.map((result) => `${result.server}/${result.tool}`),
    );
    if (ranks.size % 250 === 0) progress(`search-unseen: ${ranks.size} queries through search_tools`);
  }
  return ranks;
}

function rows(engine: string, requests: readonly UnseenRequest[], rank: Ranker): string[][] {
  return [...REQUEST_KINDS, undefined].map((kind) => {
    const asked = requests.filter((request) => kind === undefined || request.kind === kind);
    const found = evaluate(asked, rank);
    const ownTool = evaluate(
      asked.map((request) => ({ query: request.query, expected: [request.tool] })),
      rank,
    );
    const fixed = (value: number) => value.toFixed(3);
    return [
      engine,
      kind ?? "all",
      String(asked.length),
      fixed(found.s1),
      fixed(found.s5),
      fixed(ownTool.s5),
      fixed(found.mrr10),
    ];
  });
}

export async function benchSearchUnseen(): Promise<void> {
  const { servers, tools } = fixtureCatalog();
  const requests = loadRequests(new Set(tools.map((tool) => `${tool.server}/${tool.name}`)));
  progress(
    `search-unseen: ${requests.length} requests over ${tools.length} tools of ${servers.length} servers`,
  );
  const dir = tempDir("search-unseen");
  try {
    const client = await connectServe(
      dir.path,
      {
        mcpServers: fixtureServerConfigs(servers),
        toolscript: { storage: { dir: join(dir.path, "store") }, audit: { stderr: "off" } },
      },
      "search-unseen",
    );
    try {
      // Each server's line ends in its tool count; a server still connecting or failed lists none.
      const description = await untilServersSettled(client);
      const listed = [...description.matchAll(/^- \S+(?:: .*)? \((\d+)\)$/gm)].reduce(
        (sum, match) => sum + Number(match[1]),
        0,
      );
      if (listed !== tools.length)
        throw new Error(`the gateway lists ${listed} of the catalog's ${tools.length} tools`);
      const ranks = await searchAll(
        client,
        requests.map((request) => request.query),
      );
      const bm25 = miniSearchRanker(tools);
      printTable(
        `Unseen check: ${requests.length} requests over the fixture catalog (${servers.length} servers, ${tools.length} tools), never learned from`,
        ["engine", "kind", "requests", "S@1", "S@5", "S@5 own tool", "MRR@10"],
        [
          ...rows("search_tools (serve)", requests, (query) => ranks.get(query) ?? []),
          ...rows("BM25 (minisearch)", requests, bm25),
        ],
      );
    } finally {
      await client.close();
    }
  } finally {
    dir.remove();
  }
}
