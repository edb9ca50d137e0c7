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
 * `servers/<serverId>/index.d.ts`: one re-export per tool with its one-line summary, so
 * `typeof import(...)` of this module is the type of `tools.<serverId>`.
 */
export function renderServerIndex(serverId: string, tools: readonly CatalogTool[]): string {
  const sorted = [...tools].sort((a, b) => compareStrings(a.toolId, b.toolId));
  const server = sorted[0]?.server ?? serverId;
  const original = server === serverId ? "" : ` (server ${JSON.stringify(server)})`;
  const count = `${sorted.length} tool${sorted.length === 1 ? "" : "s"}`;
  const lines = [`// tools.${serverId}${original}: ${count}`];
  for (const tool of sorted) {
    const summary = summaryOf(tool);
    const comment = summary === "" ? "" : ` // ${summary}`;
    lines.push(`export { ${tool.toolId} } from "./${tool.toolId}.js";${comment}`);
  }
  if (sorted.length === 0) lines.push("export {};");
  return `${lines.join("\n")}\n`;
}

/** The root `index.d.ts`: the global `tools` object, one property per server. */
export function renderToolsGlobal(servers: readonly ServerRef[]): string {
  const sorted = [...servers].sort((a, b) => compareStrings(a.serverId, b.serverId));
  if (sorted.length === 0) return "declare const tools: Record<string, never>;\n";
  const members = sorted.map(({ server, serverId }) => {
    const doc = server === serverId ? "" : `  /** server ${escapeJsDoc(JSON.stringify(server))} */\n`;
    return `${doc}  ${serverId}: typeof import("./servers/${serverId}/index.js");`;
  });
  return `/** The MCP servers' tools: \`await tools.<server>.<tool>(input)\`. */\ndeclare const tools: {\n${members.join("\n")}\n};\n`;
}
