import { join } from "node:path";
import { parseConfig } from "../../src/config/parse.ts";
import type { Config } from "../../src/config/schema.ts";
import { Gateway } from "../../src/gateway/gateway.ts";
import type { Tokenizer } from "../../src/output/tokenizer.ts";
import type { UpstreamServerConfig } from "../../src/upstream/types.ts";
import { fixtureServerConfigs } from "../../test/helpers/fixture-catalog.ts";
import { EVERYTHING_JS, FILESYSTEM_JS, MEMORY_JS, REPO_ROOT, tempDir } from "../../test/helpers/servers.ts";
import { CodeModeAgent, DirectAgent } from "./agents.ts";
import type { ContextLedger } from "./ledger.ts";

export interface WorkloadResult {
  name: string;
  direct: ContextLedger;
  codeMode: ContextLedger;
}

const DATA = join(REPO_ROOT, "bench/data/tokens");
const SALES_DIR = join(REPO_ROOT, "examples/demo/data");

interface Setup {
  config: Config;
  servers: UpstreamServerConfig[];
  cleanup(): void;
}

function referenceServers(): Setup {
  const scratch = tempDir("tokens");
  const config = parseConfig(
    {
      mcpServers: {
        filesystem: { command: process.execPath, args: [FILESYSTEM_JS, DATA, SALES_DIR] },
        memory: {
          command: process.execPath,
          args: [MEMORY_JS],
          env: { MEMORY_FILE_PATH: join(scratch.path, "memory.jsonl") },
        },
        everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] },
      },
      toolscript: { storage: { dir: join(scratch.path, "store") }, audit: { stderr: "off" } },
    },
    { baseDir: scratch.path, env: {} },
  );
  return { config, servers: config.servers, cleanup: scratch.remove };
}

/** All 24 servers of the fixture catalog, each served with its real definitions. */
function catalogServers(): Setup {
  const scratch = tempDir("tokens-catalog");
  const mcpServers = fixtureServerConfigs();
  const config = parseConfig(
    { mcpServers, toolscript: { storage: { dir: join(scratch.path, "store") }, audit: { stderr: "off" } } },
    { baseDir: scratch.path, env: {} },
  );
  return { config, servers: config.servers, cleanup: scratch.remove };
}

async function both(
  name: string,
  setup: Setup,
  tokenizer: Tokenizer,
  direct: (agent: DirectAgent) => Promise<void>,
  codeMode: (agent: CodeModeAgent) => Promise<void>,
): Promise<WorkloadResult> {
  const gateway = new Gateway({ config: setup.config });
  const directAgent = await DirectAgent.connect(setup.servers, tokenizer);
  try {
    await direct(directAgent);
    await gateway.start();
    const codeAgent = await CodeModeAgent.connect(gateway, tokenizer);
    try {
      await codeMode(codeAgent);
    } finally {
      await codeAgent.close();
    }
    return { name, direct: directAgent.ledger, codeMode: codeAgent.ledger };
  } finally {
    await directAgent.close();
    await gateway.close();
    setup.cleanup();
  }
}

/** Anthropic's document → CRM shape: a ~50k-token transcript attached to a record. */
export function documentToCrm(tokenizer: Tokenizer): Promise<WorkloadResult> {
  const path = join(DATA, "transcript.txt");
  return both(
    "document → CRM (50k-token transcript into server-memory)",
    referenceServers(),
    tokenizer,
    async (agent) => {
      const transcript = await agent.call("filesystem", "read_text_file", { path });
      // The model has to copy the whole transcript into the next call's arguments.
      await agent.call("memory", "create_entities", {
        entities: [
          { name: "Acme discovery call 2026-11-18", entityType: "meeting", observations: [transcript] },
        ],
      });
    },
    async (agent) => {
      const read = await agent.search("read the contents of a text file", "filesystem/read_text_file");
      const create = await agent.search(
        "create an entity with observations in the knowledge graph",
        "memory/create_entities",
      );
      await agent.call("declarations", "describe_tools", { names: [read, create] });
      const { structured } = await agent.call("execute", "execute_code", {
        code: `const file = await ${read}({ path: ${JSON.stringify(path)} });
const created = await ${create}({
  entities: [{ name: "Acme discovery call 2026-11-18", entityType: "meeting", observations: [file.content] }],
});
return { attached: created.entities.length, characters: file.content.length };`,
      });
      if ((structured as { error?: unknown }).error) throw new Error(JSON.stringify(structured));
    },
  );
}

/** A 20,000-row CSV aggregated in the sandbox; only the top 10 come back. */
export function csvTopTen(tokenizer: Tokenizer): Promise<WorkloadResult> {
  const path = join(SALES_DIR, "sales.csv");
  return both(
    "20,000-row CSV aggregated, top 10 returned",
    referenceServers(),
    tokenizer,
    async (agent) => {
      await agent.call("filesystem", "read_text_file", { path });
    },
    async (agent) => {
      const read = await agent.search("read a text file from disk", "filesystem/read_text_file");
      await agent.call("declarations", "describe_tools", { names: [read] });
      const { structured } = await agent.call("execute", "execute_code", {
        code: `const { content } = await ${read}({ path: ${JSON.stringify(path)} });
const [header, ...rows] = content.trim().split("\\n");
const col = header.split(",");
const revenue = new Map<string, number>();
for (const row of rows) {
  const cells = row.split(",");
  const customer = cells[col.indexOf("customer")];
  const value = Number(cells[col.indexOf("quantity")]) * Number(cells[col.indexOf("unit_price")]);
  revenue.set(customer, (revenue.get(customer) ?? 0) + value);
}
return [...revenue].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([customer, total]) => ({ customer, total: Math.round(total) }));`,
      });
      if ((structured as { error?: unknown }).error) throw new Error(JSON.stringify(structured));
    },
  );
}

/** 24 servers, 304 real definitions: find 3 tools by search and call them. */
export function multiServer(tokenizer: Tokenizer): Promise<WorkloadResult> {
  const issue = {
    owner: "acme",
    repo: "warehouse-app",
    title: "Scanner app crashes on login",
    body: "Reported by the night shift in Rotterdam.",
  };
  const message = { channel_id: "C024BE91L", text: "Filed: Scanner app crashes on login" };
  const query = { query: "warehouse scanner login crash known issue", count: 5 };
  return both(
    "24 servers / 304 tools: 3 found by search and called",
    catalogServers(),
    tokenizer,
    async (agent) => {
      await agent.call("brave-search-archived-dummykey", "brave_web_search", query);
      await agent.call("github-archived", "create_issue", issue);
      await agent.call("slack-archived-dummykey", "slack_post_message", message);
    },
    async (agent) => {
      const search = await agent.search("search the web", "brave-search-archived-dummykey/brave_web_search");
      const create = await agent.search("create a github issue", "github-archived/create_issue");
      const post = await agent.search(
        "post a message to a slack channel",
        "slack-archived-dummykey/slack_post_message",
      );
      await agent.call("declarations", "describe_tools", { names: [search, create, post] });
      const { structured } = await agent.call("execute", "execute_code", {
        code: `const found = await ${search}(${JSON.stringify(query)});
const created = await ${create}(${JSON.stringify(issue)});
const posted = await ${post}({ ...${JSON.stringify(message)}, text: "Filed " + created.id });
return { searched: Boolean(found), issue: created.id, posted: posted.ok };`,
      });
      if ((structured as { error?: unknown }).error) throw new Error(JSON.stringify(structured));
    },
  );
}

/** The definitions an agent starts with when all 24 catalog servers are connected. */
export async function startingDefinitions(
  tokenizer: Tokenizer,
): Promise<{ gateway: number; direct: number }> {
  const setup = catalogServers();
  const gateway = new Gateway({ config: setup.config });
  const direct = await DirectAgent.connect(setup.servers, tokenizer);
  try {
    await gateway.start();
    const agent = await CodeModeAgent.connect(gateway, tokenizer);
    const counts = { gateway: agent.ledger.of("definitions"), direct: direct.ledger.of("definitions") };
    await agent.close();
    return counts;
  } finally {
    await direct.close();
    await gateway.close();
    setup.cleanup();
  }
}
