#!/usr/bin/env node
// An MCP server whose `block` tool writes a marker file (argv[2]) the moment a
// call arrives and then never answers: the test kills the gateway while the
// call is known to be at the upstream. Exits when its stdin closes.
import { writeFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const marker = process.argv[2];
const server = new Server({ name: "blocking", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "block", description: "Never answers.", inputSchema: { type: "object" } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (marker) writeFileSync(marker, JSON.stringify(request.params.arguments ?? {}));
  return new Promise(() => {});
});
process.stdin.on("end", () => process.exit(0));
process.stdin.on("close", () => process.exit(0));
await server.connect(new StdioServerTransport());
