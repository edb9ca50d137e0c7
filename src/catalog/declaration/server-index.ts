import { compareStrings } from "../naming.ts";
import type { CatalogTool } from "../types.ts";
import { escapeJsDoc } from "./jsdoc.ts";
import { firstSentence } from "./summary.ts";

/** Length of the description shown next to each tool of a server index. */
export const INDEX_SUMMARY_MAX_CHARS = 100;

/** A server as the root declaration names it. */
export interface ServerRef {
  /** Original name from the config. */
  readonly server: string;
  /** Identifier under `tools`. */
  readonly serverId: string;
}

function summaryOf(tool: CatalogTool): string {
  const { description, title } = tool.definition;
  return firstSentence(description?.trim() ? description : (title ?? ""), INDEX_SUMMARY_MAX_CHARS);
}

/**
 * The original names the sandbox also answers to, by identifier: as there, a name that is
 * already another entry's identifier stays that entry's (sandbox prelude, `alias`).
 */
export function originalAliases<T>(
  entries: readonly T[],
  id: (entry: T) => string,
  original: (entry: T) => string,
): Map<string, string> {
  const taken = new Set(entries.map(id));
  const aliases = new Map<string, string>();
  for (const entry of entries) {
    const name = original(entry);
    if (taken.has(name)) continue;
    taken.add(name);
    aliases.set(id(entry), name);
  }
  return aliases;
}

/**
 * `servers/<serverId>/index.d.ts`: one re-export per tool with its one-line summary, so
 * `typeof import(...)` of this module is the type of `tools.<serverId>`. A tool whose
 * upstream name is not an identifier is also exported under that name, quoted
 * (`tools.everything["get-sum"]`), as the sandbox also answers to it.
 */
export function renderServerIndex(serverId: string, tools: readonly CatalogTool[]): string {
  const sorted = [...tools].sort((a, b) => compareStrings(a.toolId, b.toolId));
  const aliases = originalAliases(
    sorted,
    (tool) => tool.toolId,
    (tool) => tool.tool,
  );
  const server = sorted[0]?.server ?? serverId;
  const original = server === serverId ? "" : ` (server ${JSON.stringify(server)})`;
  const count = `${sorted.length} tool${sorted.length === 1 ? "" : "s"}`;
  const lines = [`// tools.${serverId}${original}: ${count}`];
  for (const tool of sorted) {
    const summary = summaryOf(tool);
    const comment = summary === "" ? "" : ` // ${summary}`;
    const alias = aliases.get(tool.toolId);
    const names =
      alias === undefined ? tool.toolId : `${tool.toolId}, ${tool.toolId} as ${JSON.stringify(alias)}`;
    lines.push(`export { ${names} } from "./${tool.toolId}.js";${comment}`);
  }
  if (sorted.length === 0) lines.push("export {};");
  return `${lines.join("\n")}\n`;
}

/** The root `index.d.ts`: the global `tools` object, one property per server (and its original name, quoted). */
export function renderToolsGlobal(servers: readonly ServerRef[]): string {
  const sorted = [...servers].sort((a, b) => compareStrings(a.serverId, b.serverId));
  if (sorted.length === 0) return "declare const tools: Record<string, never>;\n";
  const aliases = originalAliases(
    sorted,
    (entry) => entry.serverId,
    (entry) => entry.server,
  );
  const members = sorted.map(({ server, serverId }) => {
    const doc = server === serverId ? "" : `  /** server ${escapeJsDoc(JSON.stringify(server))} */\n`;
    const type = `typeof import("./servers/${serverId}/index.js")`;
    const alias = aliases.get(serverId);
    const quoted = alias === undefined ? "" : `\n  ${JSON.stringify(alias)}: ${type};`;
    return `${doc}  ${serverId}: ${type};${quoted}`;
  });
  return `/** The MCP servers' tools: \`await tools.<server>.<tool>(input)\`. */\ndeclare const tools: {\n${members.join("\n")}\n};\n`;
}
