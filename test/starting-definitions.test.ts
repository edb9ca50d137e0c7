import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Gateway } from "../src/gateway/gateway.ts";
import { createTokenizer } from "../src/output/tokenizer.ts";
import { createMcpServer } from "../src/server/create-mcp-server.ts";
import { fixtureServerConfigs } from "./helpers/fixture-catalog.ts";
import { tempDir } from "./helpers/servers.ts";

test("with all 24 catalog servers connected, the agent starts with under 1,000 tokens of definitions", async () => {
  const dir = tempDir("definitions");
  const gateway = new Gateway({
    config: {
      mcpServers: fixtureServerConfigs(),
      toolscript: { storage: { dir: dir.path } },
    },
  });
  const client = new Client({ name: "definitions", version: "1" });
  try {
    const statuses = await gateway.start();
    assert.equal(statuses.filter((status) => status.state === "ready").length, 24);
    assert.equal(gateway.catalog.tools().length, 304);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(gateway).connect(serverSide);
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    const tokens = createTokenizer("claude-legacy").count(JSON.stringify(tools));
    assert.ok(tokens < 1000, `${tokens} tokens of meta-tool definitions`);
    const description = tools.find((tool) => tool.name === "execute_code")?.description ?? "";
    assert.equal(
      description.split("\n").filter((line) => /^- \w+(: .*)? \(\d+\)$/.test(line)).length,
      24,
      "one line per server",
    );
  } finally {
    await client.close();
    await gateway.close();
    dir.remove();
  }
});
