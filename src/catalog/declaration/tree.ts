import { compareStrings } from "../naming.ts";
import type { CatalogTool } from "../types.ts";
import { renderServerIndex, renderToolsGlobal, type ServerRef } from "./server-index.ts";
import { type DeclarationOptions, renderToolDeclaration } from "./tool-declaration.ts";

/**
 * The whole virtual declaration tree, path → content: `index.d.ts` (the global `tools`),
 * then per server `servers/<serverId>/index.d.ts` and `servers/<serverId>/<toolId>.d.ts`.
 * Deterministic: servers and tools in identifier order.
 */
export function renderTree(
  tools: readonly CatalogTool[],
  options: DeclarationOptions = {},
): Map<string, string> {
  const byServer = new Map<string, CatalogTool[]>();
  for (const tool of [...tools].sort((a, b) => compareStrings(a.toolId, b.toolId))) {
    const list = byServer.get(tool.serverId);
    if (list) list.push(tool);
    else byServer.set(tool.serverId, [tool]);
  }
  const serverIds = [...byServer.keys()].sort(compareStrings);
  const servers: ServerRef[] = serverIds.map((serverId) => ({
    serverId,
    server: byServer.get(serverId)?.[0]?.server ?? serverId,
  }));
  const tree = new Map<string, string>([["index.d.ts", renderToolsGlobal(servers)]]);
  for (const serverId of serverIds) {
    const serverTools = byServer.get(serverId) ?? [];
    tree.set(`servers/${serverId}/index.d.ts`, renderServerIndex(serverId, serverTools));
    for (const tool of serverTools) {
      tree.set(`servers/${serverId}/${tool.toolId}.d.ts`, renderToolDeclaration(tool, options));
    }
  }
  return tree;
}
