import type { Catalog } from "../catalog/catalog.ts";
import { firstSentence } from "../catalog/declaration/summary.ts";
import type { UpstreamStatus } from "../upstream/types.ts";

const LINE_MAX_CHARS = 140;

/**
 * One line per server for tool descriptions: its call path, tool count and
 * what it is for (its `instructions`, else its first tool names). Keeps the
 * agent's starting context small however many servers are connected.
 */
export function summarizeServers(catalog: Catalog, statuses: readonly UpstreamStatus[]): string[] {
  const byName = new Map(statuses.map((status) => [status.server, status]));
  return catalog.servers().map((entry) => {
    const status = byName.get(entry.server);
    const head = `- tools.${entry.serverId} (${entry.tools.length} tools)`;
    if (status && status.state !== "ready") return `${head}: ${status.state}`;
    const about = status?.instructions
      ? firstSentence(status.instructions, LINE_MAX_CHARS - head.length - 2)
      : entry.tools.map((tool) => tool.toolId).join(", ");
    const line = `${head}: ${about}`;
    return line.length > LINE_MAX_CHARS ? `${line.slice(0, LINE_MAX_CHARS - 1)}…` : line;
  });
}
