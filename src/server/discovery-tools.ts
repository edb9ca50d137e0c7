import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { firstSentence } from "../catalog/declaration/summary.ts";
import { renderToolDeclaration } from "../catalog/declaration/tool-declaration.ts";
import type { Gateway } from "../gateway/gateway.ts";
import { DEFAULT_SEARCH_DETAIL, DEFAULT_SEARCH_LIMIT, formatSearchResults } from "../search/index.ts";

const MAX_DESCRIBE = 50;

/** `search_tools`, `list_tools` and `describe_tools`: find tools without loading every definition. */
export function registerDiscoveryTools(server: McpServer, gateway: Gateway): void {
  server.registerTool(
    "search_tools",
    {
      title: "Search tools",
      description:
        "Find the tools for a task across all connected servers, best first. Describe the task in plain words; several steps may go in one query. `detail`: name (call path + one line), summary (+ parameters, default), declaration (full TypeScript).",
      inputSchema: {
        query: z.string().min(1).max(2000).describe("What you want to do, in plain words."),
        limit: z.number().int().min(1).max(50).optional().describe("How many tools (default 10)."),
        detail: z.enum(["name", "summary", "declaration"]).optional(),
      },
      outputSchema: {
        results: z.array(
          z.object({
            server: z.string(),
            tool: z.string(),
            path: z.string(),
            description: z.string(),
            score: z.number(),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, limit, detail }) => {
      const matches = gateway.search(query, { limit: limit ?? DEFAULT_SEARCH_LIMIT });
      return {
        content: [{ type: "text", text: formatSearchResults(matches, detail ?? DEFAULT_SEARCH_DETAIL) }],
        structuredContent: { results: matches.map((match) => match.result) },
      };
    },
  );

  server.registerTool(
    "list_tools",
    {
      title: "List tools",
      description:
        "Without `server`: the connected servers with their tool counts. With `server`: that server's tools, one line each. Read full declarations with describe_tools.",
      inputSchema: { server: z.string().optional().describe("A server name from the list.") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ server: name }) => {
      const { catalog } = gateway;
      if (name === undefined) {
        const statuses = new Map(gateway.statuses().map((status) => [status.server, status]));
        const lines = catalog.servers().map((entry) => {
          const state = statuses.get(entry.server)?.state ?? "unknown";
          return `servers/${entry.serverId}/ (${entry.tools.length} tools${state === "ready" ? "" : `, ${state}`})`;
        });
        return { content: [{ type: "text", text: lines.join("\n") || "No servers are configured." }] };
      }
      const entry = catalog.server(name);
      if (!entry) {
        const known = catalog
          .servers()
          .map((candidate) => candidate.serverId)
          .join(", ");
        return { content: [{ type: "text", text: `No server "${name}". Servers: ${known}` }], isError: true };
      }
      const lines = entry.tools.map(
        (tool) =>
          `${tool.path}: ${firstSentence(tool.definition.description ?? tool.definition.title ?? "")}`,
      );
      return { content: [{ type: "text", text: lines.join("\n") || `Server "${name}" has no tools.` }] };
    },
  );

  server.registerTool(
    "describe_tools",
    {
      title: "Describe tools",
      description:
        "The TypeScript declarations of the named tools (`server/tool` or `tools.server.tool`): parameters, types, descriptions.",
      inputSchema: { names: z.array(z.string()).min(1).max(MAX_DESCRIBE) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ names }) => {
      const { catalog } = gateway;
      const parts: string[] = [];
      let missing = 0;
      for (const name of names) {
        const tool = catalog.find(name);
        if (tool) {
          parts.push(`// ${tool.path}\n${renderToolDeclaration(tool)}`);
          continue;
        }
        missing++;
        const close = catalog.suggest(name).map((candidate) => `${candidate.server}/${candidate.tool}`);
        parts.push(`// ${name}: no such tool${close.length ? ` (did you mean ${close.join(", ")}?)` : ""}`);
      }
      return {
        content: [{ type: "text", text: parts.join("\n\n") }],
        ...(missing === names.length && { isError: true }),
      };
    },
  );
}
