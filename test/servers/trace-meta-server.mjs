#!/usr/bin/env node
// An MCP server for the tracing tests, over stdio: its tool `meta` and its resource
// `trace://meta` answer with the trace context keys of the request's `_meta`
// (traceparent, tracestate), so a test sees what the gateway passed on.
// Default: the 2.x SDK (2026-07-28, and 2025 for clients that do not probe);
// --legacy: the 1.x SDK (2025 revisions only).
const KEYS = ["traceparent", "tracestate"];
const traceOf = (meta) =>
  Object.fromEntries(KEYS.filter((key) => typeof meta?.[key] === "string").map((key) => [key, meta[key]]));
const answer = (meta) => ({
  content: [{ type: "text", text: JSON.stringify(traceOf(meta)) }],
  structuredContent: traceOf(meta),
});
const readAnswer = (meta) => ({
  contents: [{ uri: "trace://meta", mimeType: "application/json", text: JSON.stringify(traceOf(meta)) }],
});

if (process.argv.includes("--legacy")) {
  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const types = await import("@modelcontextprotocol/sdk/types.js");
  const server = new Server(
    { name: "trace-meta-legacy", version: "1.0.0" },
    { capabilities: { tools: {}, resources: {} } },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: "meta",
        description: "Answers with the request's trace context.",
        inputSchema: { type: "object" },
      },
    ],
  }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request) => answer(request.params._meta));
  server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({
    resources: [{ uri: "trace://meta", name: "meta" }],
  }));
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) =>
    readAnswer(request.params._meta),
  );
  await server.connect(new StdioServerTransport());
} else {
  const { McpServer } = await import("@modelcontextprotocol/server");
  const { StdioServerTransport } = await import("@modelcontextprotocol/server/stdio");
  const server = new McpServer({ name: "trace-meta", version: "1.0.0" });
  server.registerTool("meta", { description: "Answers with the request's trace context." }, async (ctx) =>
    answer(ctx.mcpReq._meta),
  );
  server.registerResource("meta", "trace://meta", { mimeType: "application/json" }, async (_uri, ctx) =>
    readAnswer(ctx.mcpReq._meta),
  );
  await server.connect(new StdioServerTransport());
}
