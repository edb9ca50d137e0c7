import { defineCommand } from "citty";
import { firstSentence } from "../../catalog/declaration/summary.ts";
import { renderToolDeclaration } from "../../catalog/declaration/tool-declaration.ts";
import { DEFAULT_SEARCH_DETAIL, formatSearchResults, type SearchDetail } from "../../search/index.ts";
import { CliError } from "../cli-error.ts";
import { everyServerFailed, openGateway } from "../open-gateway.ts";
import { toolLabel } from "../tool-label.ts";
import { COMMAND_META } from "./meta.ts";

const configArg = {
  config: {
    type: "string",
    description: "Config file (default: ./.mcp.json, else ./toolscript.config.json)",
    valueHint: "FILE",
  },
} as const;

const list = defineCommand({
  meta: { name: "list", description: "List every tool of every configured server" },
  args: {
    ...configArg,
    server: { type: "string", description: "Only this server's tools" },
    json: { type: "boolean", description: "Print JSON: [{server, tool, path, description}]" },
  },
  async run({ args }) {
    const gateway = await openGateway({
      sandbox: false,
      configPath: args.config,
      showStatus: true,
      requireServers: true,
    });
    try {
      // The status lines above say why each one failed; an empty listing must not look like success.
      if (everyServerFailed(gateway.statuses()))
        throw new CliError("no server is ready, so there are no tools to list");
      const tools = gateway.catalog
        .tools()
        .filter(
          (tool) => args.server === undefined || tool.server === args.server || tool.serverId === args.server,
        );
      if (args.json) {
        const rows = tools.map((tool) => ({
          server: tool.server,
          tool: tool.tool,
          path: tool.path,
          description: tool.definition.description ?? "",
        }));
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const labels = tools.map(toolLabel);
      const width = Math.max(0, ...labels.map((label) => label.length));
      tools.forEach((tool, index) => {
        const summary = firstSentence(tool.definition.description ?? tool.definition.title ?? "", 90);
        process.stdout.write(`${(labels[index] ?? tool.path).padEnd(width)}  ${summary}\n`);
      });
      process.stderr.write(`${tools.length} tools\n`);
    } finally {
      await gateway.close();
    }
  },
});

const show = defineCommand({
  meta: { name: "show", description: "Print the TypeScript declaration of a tool" },
  args: {
    name: { type: "positional", required: true, description: "server/tool, or tools.server.tool" },
    ...configArg,
    json: {
      type: "boolean",
      description: "Print the tool's definition as the server sent it (name, inputSchema, outputSchema, ...)",
    },
  },
  async run({ args }) {
    const gateway = await openGateway({ sandbox: false, configPath: args.config });
    try {
      const tool = gateway.catalog.find(args.name);
      if (!tool) {
        const close = gateway.catalog
          .suggest(args.name)
          .map((candidate) => `${candidate.server}/${candidate.tool}`);
        throw new CliError(
          `no tool named "${args.name}"${close.length ? `; did you mean ${close.join(", ")}?` : ""}`,
        );
      }
      if (args.json) {
        process.stdout.write(`${JSON.stringify(tool.definition, null, 2)}\n`);
        return;
      }
      // The declaration opens with `// <path>`; the original name goes beside it.
      const declaration = renderToolDeclaration(tool).replace(`// ${tool.path}`, `// ${toolLabel(tool)}`);
      process.stdout.write(`${declaration}\n`);
    } finally {
      await gateway.close();
    }
  },
});

const search = defineCommand({
  meta: { name: "search", description: "Search the tools of every configured server, best first" },
  args: {
    query: { type: "positional", required: true, description: "What you want to do, in plain words" },
    ...configArg,
    limit: { type: "string", description: "How many results (default 10)", valueHint: "N" },
    detail: {
      type: "enum",
      options: ["name", "summary", "declaration"],
      description: "How much to show (default summary)",
    },
    json: { type: "boolean", description: "Print JSON: [{server, tool, path, description, score, matched}]" },
  },
  async run({ args }) {
    const limit = args.limit === undefined ? 10 : Number(args.limit);
    if (!(Number.isInteger(limit) && limit > 0))
      throw new CliError(`--limit expects a positive integer, got "${args.limit}"`);
    const gateway = await openGateway({ sandbox: false, configPath: args.config });
    try {
      const matches = gateway.search(args.query, { limit });
      if (args.json) {
        process.stdout.write(
          `${JSON.stringify(
            matches.map((match) => match.result),
            null,
            2,
          )}\n`,
        );
        return;
      }
      const detail = (args.detail ?? DEFAULT_SEARCH_DETAIL) as SearchDetail;
      process.stdout.write(`${formatSearchResults(matches, detail)}\n`);
    } finally {
      await gateway.close();
    }
  },
});

export const toolsCommand = defineCommand({
  meta: COMMAND_META.tools,
  subCommands: { list, search, show },
});
