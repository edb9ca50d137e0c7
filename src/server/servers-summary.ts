import type { Catalog } from "../catalog/catalog.ts";
import { firstSentence } from "../catalog/declaration/summary.ts";
import type { UpstreamStatus } from "../upstream/types.ts";

/** Servers listed by name in the description; the rest are counted, and list_tools shows them. */
export const MAX_LISTED_SERVERS = 40;
const ABOUT_MAX_CHARS = 60;

/**
 * One short line per server for the execute_code description: its call
 * path, tool count, and its own one-line `instructions` when it has them.
 * Bounded, so an agent's starting context stays small however many servers
 * are connected.
 */
export function summarizeServers(catalog: Catalog, statuses: readonly UpstreamStatus[]): string[] {
  const byName = new Map(statuses.map((status) => [status.server, status]));
  const servers = catalog.servers();
  const lines = servers.slice(0, MAX_LISTED_SERVERS).map((entry) => {
    const status = byName.get(entry.server);
    const head = `- tools.${entry.serverId} (${entry.tools.length})`;
    if (status && status.state !== "ready") return `${head} ${status.state}`;
    return status?.instructions ? `${head}: ${firstSentence(status.instructions, ABOUT_MAX_CHARS)}` : head;
  });
  if (servers.length > MAX_LISTED_SERVERS) {
    lines.push(`- … and ${servers.length - MAX_LISTED_SERVERS} more servers (list_tools shows them all)`);
  }
  return lines;
}
