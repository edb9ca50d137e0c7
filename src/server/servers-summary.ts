import type { Catalog } from "../catalog/catalog.ts";
import { firstSentence } from "../catalog/declaration/summary.ts";
import type { UpstreamStatus } from "../upstream/types.ts";

/**
 * Characters the server lines may take in the execute_code description
 * (~300 tokens): past it the rest are counted, and list_tools shows them.
 * This keeps an agent's starting context under 1,000 tokens however many
 * servers are connected.
 */
export const SERVER_LINES_MAX_CHARS = 900;
const ABOUT_MAX_CHARS = 60;

/** One short line per server: its identifier, tool count, and its own one-line `instructions` if any. */
export function summarizeServers(catalog: Catalog, statuses: readonly UpstreamStatus[]): string[] {
  const byName = new Map(statuses.map((status) => [status.server, status]));
  const servers = catalog.servers();
  const lines: string[] = [];
  let chars = 0;
  for (const [index, entry] of servers.entries()) {
    const status = byName.get(entry.server);
    const head = `- ${entry.serverId} (${entry.tools.length})`;
    let line = head;
    if (status && status.state !== "ready") line = `${head} ${status.state}`;
    else if (status?.instructions) line = `${head}: ${firstSentence(status.instructions, ABOUT_MAX_CHARS)}`;
    if (chars + line.length > SERVER_LINES_MAX_CHARS) {
      lines.push(`- … and ${servers.length - index} more servers (list_tools shows them all)`);
      break;
    }
    lines.push(line);
    chars += line.length + 1;
  }
  return lines;
}
