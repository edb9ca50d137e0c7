#!/usr/bin/env node
// Serves the real tool definitions of one server from test/fixtures/catalog.json
// (`--server NAME`), so benchmarks can connect all 24 catalog servers offline.
// A call answers with a small deterministic JSON result that quotes its arguments.
import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const index = process.argv.indexOf("--server");
const name = index === -1 ? undefined : process.argv[index + 1];
const catalog = JSON.parse(readFileSync(new URL("../fixtures/catalog.json", import.meta.url), "utf8"));
const tools = catalog.tools
  .filter((tool) => tool.server === name)
  .map(({ server: _server, ...definition }) => definition);
if (tools.length === 0) {
  console.error(`fixture-catalog-server: no tools for --server ${name}`);
  process.exit(2);
}

const server = new Server({ name: `fixture-${name}`, version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = tools.find((candidate) => candidate.name === request.params.name);
  if (!tool)
    return { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true };
  const result = {
    ok: true,
    server: name,
    tool: tool.name,
    id: `${name}-${tool.name}-1`,
    received: request.params.arguments ?? {},
  };
  return { content: [{ type: "text", text: JSON.stringify(result) }] };
});
await server.connect(new StdioServerTransport());
