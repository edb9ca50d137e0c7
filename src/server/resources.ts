import { type McpServer, ResourceNotFoundError, ResourceTemplate } from "@modelcontextprotocol/server";
import { renderPythonStub } from "../catalog/declaration/python/tool-stub.ts";
import { renderServerIndex } from "../catalog/declaration/server-index.ts";
import { firstSentence } from "../catalog/declaration/summary.ts";
import { renderToolDeclaration } from "../catalog/declaration/tool-declaration.ts";
import type { Gateway } from "../gateway/gateway.ts";
import { renderSkillDeclaration } from "../skills/skill-documents.ts";
import type { Caller } from "./caller.ts";

export const RESOURCE_SCHEME = "toolscript://";
const MIME = "application/typescript";
const PYTHON_MIME = "text/x-python";

/**
 * The virtual tree as MCP resources: `toolscript://servers/<server>/<tool>.d.ts`
 * and its Python stub `<tool>.pyi` for every tool, `toolscript://servers/<server>/index.d.ts` per server, and
 * `toolscript://skills/<name>.ts` per saved skill (its code, after its declaration).
 */
export function registerCatalogResources(server: McpServer, gateway: Gateway, caller: Caller): void {
  const { catalog } = gateway;
  server.registerResource(
    "tool-declarations",
    new ResourceTemplate(`${RESOURCE_SCHEME}servers/{server}/{file}`, {
      list: async () => ({
        resources: catalog.servers().flatMap((entry) => [
          {
            uri: `${RESOURCE_SCHEME}servers/${entry.serverId}/index.d.ts`,
            name: `servers/${entry.serverId}/index.d.ts`,
            description: `${entry.tools.length} tools of ${entry.server}`,
            mimeType: MIME,
          },
          ...entry.tools.flatMap((tool) => {
            const description = firstSentence(
              tool.definition.description ?? tool.definition.title ?? "",
              100,
            );
            return [
              {
                uri: `${RESOURCE_SCHEME}servers/${tool.serverId}/${tool.toolId}.d.ts`,
                name: `servers/${tool.serverId}/${tool.toolId}.d.ts`,
                description,
                mimeType: MIME,
              },
              {
                uri: `${RESOURCE_SCHEME}servers/${tool.serverId}/${tool.toolId}.pyi`,
                name: `servers/${tool.serverId}/${tool.toolId}.pyi`,
                description,
                mimeType: PYTHON_MIME,
              },
            ];
          }),
        ]),
      }),
    }),
    {
      description: "TypeScript declarations (.d.ts) and Python stubs (.pyi) of the connected servers' tools",
    },
    async (uri, variables) => {
      const serverName = String(variables.server);
      const file = String(variables.file);
      const entry = catalog.server(serverName);
      if (!entry) {
        const known = catalog.servers().map((server) => server.serverId);
        throw notFound(
          uri,
          `no server "${serverName}" in the catalog (known: ${known.join(", ") || "none"})`,
        );
      }
      if (file === "index.d.ts") {
        return {
          contents: [{ uri: uri.href, mimeType: MIME, text: renderServerIndex(entry.serverId, entry.tools) }],
        };
      }
      const python = file.endsWith(".pyi");
      const toolName = file.replace(/\.(d\.ts|pyi)$/, "");
      const tool = entry.tools.find(
        (candidate) => candidate.toolId === toolName || candidate.tool === toolName,
      );
      if (!tool) throw notFound(uri, `no tool "${toolName}" on server "${serverName}"`);
      if (python) {
        const text = renderPythonStub(tool, { serverTools: entry.tools });
        return { contents: [{ uri: uri.href, mimeType: PYTHON_MIME, text }] };
      }
      return { contents: [{ uri: uri.href, mimeType: MIME, text: renderToolDeclaration(tool) }] };
    },
  );

  server.registerResource(
    "skills",
    new ResourceTemplate(`${RESOURCE_SCHEME}skills/{file}`, {
      list: async (ctx) => ({
        resources: gateway.skills.list({ session: caller.defaultSession(ctx) }).map((skill) => {
          const file = `skills/${skill.name}.${skill.language === "python" ? "py" : "ts"}`;
          return {
            uri: `${RESOURCE_SCHEME}${file}`,
            name: file,
            description: firstSentence(skill.description, 100),
            mimeType: skill.language === "python" ? PYTHON_MIME : MIME,
          };
        }),
      }),
    }),
    { description: "Saved skills (.ts, or .py for Python ones): declaration, description and code" },
    async (uri, variables, ctx) => {
      const name = String(variables.file).replace(/\.((d\.)?ts|pyi?)$/, "");
      const skill = gateway.skills.get(name, caller.defaultSession(ctx));
      if (!skill) throw notFound(uri, `no skill "${name}"`);
      const python = skill.language === "python";
      const rule = python ? "# ---- code ----" : "// ---- code ----";
      const text = `${renderSkillDeclaration(skill)}\n${rule}\n${skill.code.trimEnd()}\n`;
      return { contents: [{ uri: uri.href, mimeType: python ? PYTHON_MIME : MIME, text }] };
    },
  );
}

/**
 * A read of something that does not exist: the protocol's resource-not-found
 * error (-32602 with the URI in `data`, per 2026-07-28), not a server failure (-32603).
 */
function notFound(uri: URL, message: string): ResourceNotFoundError {
  return new ResourceNotFoundError(uri.href, `${message} (${uri.href})`);
}
