// The final unseen check of tool search (issue #23): requests written for the 24 servers of the
// fixture catalog, which nothing in search learns from or is tuned on, asked through
// `search_tools` of a real `toolscript serve` with the catalog's servers connected, by a stock
// SDK client. Prints top-1, top-5 and MRR@10 by request kind, with minisearch BM25 over the same
// tools in the same run. The requests are a measuring stick only (bench/data/search-unseen/README.md).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectServe, untilServersSettled } from "../test/helpers/mcp-client.ts";
import { REPO_ROOT, tempDir } from "../test/helpers/servers.ts";
import { REQUEST_KINDS, type RequestKind } from "./corpus-set.ts";
import { type EvalTool, miniSearchRanker, type Ranker } from "./search-quality.ts";
import { printTable, progress } from "./table.ts";

const REQUESTS = join(REPO_ROOT, "bench/data/search-unseen");
const CATALOG = join(REPO_ROOT, "test/fixtures/catalog.json");
const FIXTURE_SERVER = join(REPO_ROOT, "test/servers/fixture-catalog-server.mjs");

interface UnseenRequest {
  server: string;
  kind: RequestKind;
  query: string;
  /** The tool the request was written for, as `server/tool`. */
  tool: string;
  /** `server/tool` ids that serve the request: its tool and the equivalents its writer listed. */
  expected: Set<string>;
}

interface Scores {
  asked: number;
  top1: number;
  top5: number;
  /** Found in the top 5 by the tool it was written for, not an equivalent. */
  ownTop5: number;
  reciprocalRank: number;
}

/** Every request file's lines; a tool or an equivalent the catalog does not have is an error naming its line. */
function loadRequests(known: ReadonlySet<string>): UnseenRequest[] {
  const requests: UnseenRequest[] = [];
  for (const file of readdirSync(REQUESTS)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()) {
    const server = file.slice(0, -".jsonl".length);
    readFileSync(join(REQUESTS, file), "utf8")
      .split("\n")
      .forEach((line, index) => {
        if (line.trim() === "") return;
        const parsed = JSON.parse(line) as {
          tool: string;
          kind: RequestKind;
          query: string;
          also?: string[];
        };
        if (!REQUEST_KINDS.includes(parsed.kind))
          throw new Error(`${file}:${index + 1}: unknown kind ${parsed.kind}`);
        const expected = new Set([`${server}/${parsed.tool}`, ...(parsed.also ?? [])]);
        const unknown = [...expected].filter((id) => !known.has(id));
        if (unknown.length > 0)
          throw new Error(`${file}:${index + 1}: not in the catalog: ${unknown.join(", ")}`);
        requests.push({
          server,
          kind: parsed.kind,
          query: parsed.query,
          tool: `${server}/${parsed.tool}`,
          expected,
        });
      });
  }
  return requests;
}

function loadCatalog(): { servers: string[]; tools: EvalTool[] } {
  const catalog = JSON.parse(readFileSync(CATALOG, "utf8")) as {
    servers: Array<{ server: string }>;
    tools: EvalTool[];
  };
  return { servers: catalog.servers.map(({ server }) => server), tools: catalog.tools };
}

/** A ranker asking `search_tools` of the running gateway for its top 10. */
async function gatewayRanks(client: Client, queries: readonly string[]): Promise<string[][]> {
  const ranks: string[][] = [];
  for (const [index, query] of queries.entries()) {
    const answer = await client.callTool({ name: "search_tools", arguments: { query, limit: 10 } });
    if (answer.isError) throw new Error(`search_tools failed on ${JSON.stringify(query)}`);
    const results = (answer.structuredContent as { results: Array<{ server: string; tool?: string }> })
      .results;
    ranks.push(results.map((result) => `${result.server}/${result.tool ?? ""}`));
    if ((index + 1) % 250 === 0)
      progress(`search-unseen: ${index + 1}/${queries.length} through search_tools`);
  }
  return ranks;
}

function score(requests: readonly UnseenRequest[], ranks: readonly string[][], kind?: RequestKind): Scores {
  const scores: Scores = { asked: 0, top1: 0, top5: 0, ownTop5: 0, reciprocalRank: 0 };
  requests.forEach((request, index) => {
    if (kind !== undefined && request.kind !== kind) return;
    const ranked = ranks[index] ?? [];
    const position = ranked.findIndex((id) => request.expected.has(id));
    const own = ranked.indexOf(request.tool);
    if (own >= 0 && own < 5) scores.ownTop5++;
    scores.asked++;
    if (position === 0) scores.top1++;
    if (position >= 0 && position < 5) scores.top5++;
    if (position >= 0) scores.reciprocalRank += 1 / (position + 1);
  });
  return scores;
}

function rows(label: string, requests: readonly UnseenRequest[], ranks: readonly string[][]): string[][] {
  return [...REQUEST_KINDS, undefined].map((kind) => {
    const scores = score(requests, ranks, kind);
    const share = (count: number) => (count / scores.asked).toFixed(3);
    return [
      label,
      kind ?? "all",
      String(scores.asked),
      share(scores.top1),
      share(scores.top5),
      share(scores.ownTop5),
      share(scores.reciprocalRank),
    ];
  });
}

export async function benchSearchUnseen(): Promise<void> {
  const { servers, tools } = loadCatalog();
  const requests = loadRequests(new Set(tools.map((tool) => `${tool.server}/${tool.name}`)));
  const dir = tempDir("search-unseen");
  const mcpServers = Object.fromEntries(
    servers.map((server) => [
      server,
      { command: process.execPath, args: [FIXTURE_SERVER, "--server", server] },
    ]),
  );
  progress(
    `search-unseen: ${requests.length} requests over ${tools.length} tools of ${servers.length} servers`,
  );
  const client = await connectServe(
    dir.path,
    { mcpServers, toolscript: { storage: { dir: join(dir.path, "store") }, audit: { stderr: "off" } } },
    "search-unseen",
  );
  try {
    const description = await untilServersSettled(client);
    const ready = description.split("\n").filter((line) => /^- \S+(: .*)? \((\d+)\)$/.test(line)).length;
    if (ready !== servers.length) throw new Error(`${ready} of ${servers.length} catalog servers ready`);
    const queries = requests.map((request) => request.query);
    const ours = await gatewayRanks(client, queries);
    const bm25: Ranker = miniSearchRanker(tools);
    printTable(
      `Unseen check: ${requests.length} requests over the fixture catalog (${servers.length} servers, ${tools.length} tools), never learned from`,
      ["engine", "kind", "requests", "S@1", "S@5", "S@5 own tool", "MRR@10"],
      [
        ...rows("search_tools (serve)", requests, ours),
        ...rows("BM25 (minisearch)", requests, queries.map(bm25)),
      ],
    );
  } finally {
    await client.close();
    dir.remove();
  }
}
