import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Gateway } from "../gateway/gateway.ts";
import { DEFAULT_SESSION } from "../gateway/types.ts";
import { renderSkillDeclaration } from "../skills/skill-documents.ts";

export const SAVE_SKILL = "save_skill";

/** `save_skill`: code that solved a task once becomes a module later programs import. */
export function registerSkillTools(server: McpServer, gateway: Gateway, client: string | null = null): void {
  server.registerTool(
    SAVE_SKILL,
    {
      // Kept short: every meta-tool definition sits in the agent's starting context.
      description:
        'Save a TypeScript module as a skill: later programs `import { f } from "skills/<name>"`. Exported functions need typed parameters; it may call tools and import skills; no top-level await. Type-checked on save.',
      inputSchema: {
        name: z.string().min(1).max(64),
        code: z.string().min(1),
        description: z.string().min(1).max(10_000),
        session: z.string().min(1).max(200).optional(),
        visibility: z.enum(["shared", "private"]).optional(),
      },
      annotations: { destructiveHint: false },
    },
    async (args, extra) => {
      const session = args.session ?? extra.sessionId ?? DEFAULT_SESSION;
      // Claimed before saving: a skill saved into a new session makes it this client's.
      const refused = gateway.sessionRefusal(session, client, { claim: true });
      if (refused) return { content: [{ type: "text", text: refused }], isError: true };
      try {
        const saved = await gateway.skills.save({
          name: args.name,
          code: args.code,
          description: args.description,
          session,
          visibility: args.visibility,
        });
        return {
          content: [{ type: "text", text: renderSkillDeclaration(saved) }],
          structuredContent: {
            name: saved.name,
            version: saved.version,
            visibility: saved.visibility,
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
