import type { CatalogTool } from "../catalog/types.ts";

/**
 * A tool's sandbox path with its upstream name beside it when they differ:
 * `tools.everything.get_sum  (get-sum)`, or `(my-server/get-sum)` when the
 * server was renamed too. Both work in code (`tools.everything["get-sum"]`).
 */
export function toolLabel(tool: CatalogTool): string {
  const serverRenamed = tool.server !== tool.serverId;
  if (!serverRenamed && tool.tool === tool.toolId) return tool.path;
  const original = serverRenamed ? `${tool.server}/${tool.tool}` : tool.tool;
  return `${tool.path}  (${original})`;
}
