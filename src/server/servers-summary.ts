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
const ABOUT_MAX_CHARS = 80;

/**
 * One short line per server: `- name: one plain sentence (N)`, the
 * sentence taken from its own `instructions` (markdown headings and markup
 * left out); `- name (N)` without instructions; `- name: failed (0)`
 * while it is not ready.
 */
export function summarizeServers(catalog: Catalog, statuses: readonly UpstreamStatus[]): string[] {
  const byName = new Map(statuses.map((status) => [status.server, status]));
  const servers = catalog.servers();
  const lines: string[] = [];
  let chars = 0;
  for (const [index, entry] of servers.entries()) {
    const status = byName.get(entry.server);
    const count = `(${entry.tools.length})`;
    const about =
      status && status.state !== "ready"
        ? status.state
        : status?.instructions && plainSentence(status.instructions, ABOUT_MAX_CHARS);
    const line = about ? `- ${entry.serverId}: ${about} ${count}` : `- ${entry.serverId} ${count}`;
    if (chars + line.length > SERVER_LINES_MAX_CHARS) {
      lines.push(`- … and ${servers.length - index} more servers (list_tools shows them all)`);
      break;
    }
    lines.push(line);
    chars += line.length + 1;
  }
  return lines;
}

/** Instructions longer than this are not read further: the first paragraph is near the top. */
const INSTRUCTIONS_SCAN_CHARS = 8_000;

/**
 * The first plain sentence of a server's `instructions`, at most `maxChars`:
 * headings (`# Everything Server – Server Instructions`), rules, fences and
 * HTML are skipped, list and quote marks, emphasis, code marks and link
 * targets dropped, and a leading label (`Audience:`) left out. A text that is
 * only headings gives its first heading's words.
 */
export function plainSentence(instructions: string, maxChars: number): string | undefined {
  const lines = instructions.slice(0, INSTRUCTIONS_SCAN_CHARS).split(/\r?\n/);
  const paragraph: string[] = [];
  let heading: string | undefined;
  let fenced = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const skip =
      fenced || /^(```|~~~)/.test(line) || /^([-*_=]\s*){3,}$/.test(line) || /^<[^>]*>$/.test(line);
    if (/^#{1,6}\s/.test(line)) {
      heading ??= inline(line.replace(/^#+\s*/, "").replace(/\s*#+$/, ""));
      if (paragraph.length > 0) break;
      continue;
    }
    if (line === "" || skip) {
      if (paragraph.length > 0) break;
      continue;
    }
    const item = /^(?:[-*+>]|\d+[.)])\s+/;
    // Each list item is its own statement: the first one is enough.
    if (paragraph.length > 0 && item.test(line)) break;
    paragraph.push(inline(line.replace(item, "")));
  }
  const text = paragraph.join(" ").replace(/^[\p{Lu}][\p{L} ]{0,24}:\s+(?=\p{Lu})/u, "");
  const sentence = firstSentence(text || heading || "", maxChars);
  return sentence === "" ? undefined : sentence;
}

/** Markdown inline markup removed: links keep their text, emphasis and code marks go. */
function inline(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__|`)/g, "")
    .replace(/(^|\s)[*_]([^*_\s][^*_]*)[*_](?=\s|[.,;:!?]|$)/g, "$1$2")
    .replace(/\s+/g, " ")
    .trim();
}
