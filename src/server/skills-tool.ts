import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Gateway } from "../gateway/gateway.ts";
import { renderSkillDeclaration } from "../skills/skill-documents.ts";
import type { Caller } from "./caller.ts";

export const SAVE_SKILL = "save_skill";
/** Longest skill description; checked in the handler, not the schema (schema text is in every starting context). */
export const MAX_SKILL_DESCRIPTION_CHARS = 10_000;

/** `save_skill`: code that solved a task once becomes a module later programs import. */
export function registerSkillTools(server: McpServer, gateway: Gateway, caller: Caller): void {
  server.registerTool(
    SAVE_SKILL,
    {
      // Kept short: every meta-tool definition sits in the agent's starting context.
      description:
        'Save a module as a skill: later programs `import { f } from "skills/<name>"`. Exported functions need typed parameters; it may call tools and import skills; no top-level await. Type-checked on save.',
      // Name and description bounds are checked when saving (assertSkillName, below).
      inputSchema: z.object({
        name: z.string(),
        code: z.string().min(1),
        description: z.string().min(1),
        session: z.string().min(1).max(200).optional(),
        visibility: z.enum(["shared", "private"]).optional(),
        language: z.enum(["typescript", "python"]).optional(),
      }),
      annotations: { destructiveHint: false },
    },
    async (args, ctx) => {
      const session = args.session ?? caller.defaultSession(ctx);
      // Claimed before saving: a skill saved into a new session makes it this client's.
      const refused = await gateway.sessionRefusal(session, caller.client, { claim: true });
      if (refused) return { content: [{ type: "text", text: refused }], isError: true };
      try {
        if (args.description.length > MAX_SKILL_DESCRIPTION_CHARS) {
          const text = `description: ${args.description.length} characters; at most ${MAX_SKILL_DESCRIPTION_CHARS}`;
          return { content: [{ type: "text", text }], isError: true };
        }
        const saved = await gateway.skills.save({
          name: args.name,
          code: args.code,
          description: args.description,
          session,
          visibility: args.visibility,
          language: args.language,
        });
        return {
          content: [{ type: "text", text: renderSkillDeclaration(saved) }],
          structuredContent: {
            name: saved.name,
            version: saved.version,
            visibility: saved.visibility,
            language: saved.language,
            declaration: saved.declaration,
            exports: saved.exports,
            imports: saved.imports,
          },
        };
      } catch (error) {
        const record = error as { name?: unknown; code?: unknown; message?: unknown };
        const code = typeof record.code === "string" ? ` [${record.code}]` : "";
        return {
          content: [
            {
              type: "text",
              text: `${String(record.name ?? "Error")}${code}: ${String(record.message ?? error)}`,
            },
          ],
          isError: true,
        };
      }
    },
  );
}
