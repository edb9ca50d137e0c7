import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { renderPythonStub } from "../catalog/declaration/python/tool-stub.ts";
import { firstSentence } from "../catalog/declaration/summary.ts";
import { renderToolDeclaration } from "../catalog/declaration/tool-declaration.ts";
import type { Gateway } from "../gateway/gateway.ts";
import {
  DEFAULT_SEARCH_DETAIL,
  DEFAULT_SEARCH_LIMIT,
  formatSearchResults,
  MAX_QUERY_CHARS,
} from "../search/index.ts";
import { renderSkillDeclaration, SKILLS_FOLDER, skillLabel } from "../skills/skill-documents.ts";
import type { Caller } from "./caller.ts";
import { describeGlobal } from "./describe-globals.ts";

const MAX_DESCRIBE = 50;

/** `search_tools`, `list_tools` and `describe_tools`: find tools without loading every definition. */
export function registerDiscoveryTools(server: McpServer, gateway: Gateway, caller: Caller): void {
  server.registerTool(
    "search_tools",
    {
      // Kept short: every meta-tool definition sits in the agent's starting context (the
      // `detail` values are in the schema). One capability per query: a whole task's words
      // match many tools a little, one step's words match its tool well.
      description:
        "Find tools and skills. Query ONE capability in plain words ('send an email'). None fit: retry with synonyms, product or category.",
      inputSchema: z.object({
        query: z.string().min(1).max(MAX_QUERY_CHARS),
        limit: z.number().min(1).max(50).optional(),
        detail: z.enum(["name", "summary", "declaration"]).optional(),
        session: z.string().min(1).max(200).optional(),
      }),
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit, detail, session: named }, ctx) => {
      const session = named ?? caller.defaultSession(ctx);
      // Another client's session would show its private skills.
      const refused = await gateway.sessionRefusal(session, caller.client);
      if (refused) return { content: [{ type: "text", text: refused }], isError: true };
      // Saved skills rank with the tools (`server: "skills"`, `path: "skills/<name>"`).
      const matches = gateway.skills.search(query, { limit: limit ?? DEFAULT_SEARCH_LIMIT, session });
      return {
        content: [{ type: "text", text: formatSearchResults(matches, detail ?? DEFAULT_SEARCH_DETAIL) }],
        structuredContent: { results: matches.map((match) => match.result) },
      };
    },
  );

  server.registerTool(
    "list_tools",
    {
      description: "The servers with tool counts; with `server`, its tools one line each.",
      inputSchema: z.object({ server: z.string().optional() }),
      annotations: { readOnlyHint: true },
    },
    async ({ server: name }, ctx) => {
      const { catalog } = gateway;
      const skills = gateway.skills.list({ session: caller.defaultSession(ctx) });
      if (name === SKILLS_FOLDER && !catalog.server(name)) {
        const lines = skills.map((skill) => `${skillLabel(skill)}: ${firstSentence(skill.description)}`);
        return {
          content: [{ type: "text", text: lines.join("\n") || "No skills are saved yet (save_skill)." }],
        };
      }
      if (name === undefined) {
        const statuses = new Map(gateway.statuses().map((status) => [status.server, status]));
        const lines = catalog.servers().map((entry) => {
          const state = statuses.get(entry.server)?.state ?? "unknown";
          return `servers/${entry.serverId}/ (${entry.tools.length} tools${state === "ready" ? "" : `, ${state}`})`;
        });
        lines.push(`${SKILLS_FOLDER}/ (${skills.length} skills)`);
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
      // Globals (`resources`, `prompts`) are described too; not said here: the starting context is at its budget.
      description: "TypeScript declarations of tools (`server/tool`) or skills (`skills/<name>`).",
      // The count is checked below rather than in the schema: every schema token is in the starting context.
      inputSchema: z.object({
        names: z.array(z.string()),
        language: z.enum(["typescript", "python"]).optional(),
      }),
      annotations: { readOnlyHint: true },
    },
    async ({ names, language }, ctx) => {
      const { catalog } = gateway;
      const session = caller.defaultSession(ctx);
      if (names.length === 0 || names.length > MAX_DESCRIBE) {
        const text = `names: give 1 to ${MAX_DESCRIBE} names (got ${names.length})`;
        return { content: [{ type: "text", text }], isError: true };
      }
      const python = language === "python";
      const comment = python ? "#" : "//";
      const parts: string[] = [];
      let missing = 0;
      // `resources` and `prompts` share one Python stub: shown once.
      const shown = new Set<string>();
      for (const name of names) {
        const skillName = name.startsWith(`${SKILLS_FOLDER}/`)
          ? name.slice(SKILLS_FOLDER.length + 1)
          : undefined;
        const skill = gateway.skills.get(skillName ?? name, session);
        if (skill && (skillName !== undefined || !catalog.find(name))) {
          parts.push(renderSkillDeclaration(skill, { language: language ?? "typescript" }).trimEnd());
          continue;
        }
        const tool = catalog.find(name);
        if (tool) {
          const text = python
            ? renderPythonStub(tool, { serverTools: catalog.server(tool.serverId)?.tools ?? [tool] })
            : renderToolDeclaration(tool);
          parts.push(text.trimEnd());
          continue;
        }
        const global = describeGlobal(name, python);
        if (global !== undefined) {
          if (!shown.has(global)) parts.push(global);
          shown.add(global);
          continue;
        }
        missing++;
        const close = catalog.suggest(name).map((candidate) => `${candidate.server}/${candidate.tool}`);
        parts.push(
          `${comment} ${name}: no such tool${close.length ? ` (did you mean ${close.join(", ")}?)` : ""}`,
        );
      }
      return {
        content: [{ type: "text", text: parts.join("\n\n") }],
        ...(missing === names.length && { isError: true }),
      };
    },
  );
}
