import type { CatalogServer } from "../catalog/catalog.ts";
import type { ToolNamespace } from "../sandbox/types.ts";

/**
 * The sandbox's `tools` object plus the tools a program names on servers
 * that are not ready and have never listed any. Without them the sandbox
 * refuses `tools.slow.echo()` as "Unknown tool … Known: ."; with them the
 * call reaches the host, which says the server is starting, restarting or
 * failed (and when it will next be tried).
 */
export function withPendingTools(
  namespace: ToolNamespace,
  code: string,
  pending: readonly CatalogServer[],
): ToolNamespace {
  let result = namespace;
  for (const server of pending) {
    const current = namespace[server.serverId];
    if (current && Object.keys(current.tools).length > 0) continue;
    const named = namedTools(code, server.serverId);
    if (named.length === 0) continue;
    if (result === namespace) result = { ...namespace };
    result[server.serverId] = {
      server: server.server,
      tools: Object.fromEntries(named.map((tool) => [tool, tool])),
    };
  }
  return result;
}

/** Whether the program names a tool of any of these servers (then its declarations are not complete yet). */
export function namesToolsOf(code: string, servers: readonly CatalogServer[]): boolean {
  return servers.some((server) => namedTools(code, server.serverId).length > 0);
}

/** `tools.<id>.<name>`, `tools.<id>["<name>"]` in the program's text. */
function namedTools(code: string, serverId: string): string[] {
  const id = serverId.replace(/[$]/g, "\\$&");
  const pattern = new RegExp(
    String.raw`\btools\s*\.\s*${id}\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(["'])((?:(?!\2)[^\\\n]){1,128})\2\s*\])`,
    "g",
  );
  const names = new Set<string>();
  for (const match of code.matchAll(pattern)) names.add((match[1] ?? match[3]) as string);
  return [...names];
}
