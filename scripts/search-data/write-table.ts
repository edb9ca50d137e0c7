// Shared by the build scripts of the text tables in data/search/: the header every table
// starts with (what made it, from what, with which stemmer, in which line format) and the
// writing of the table. The loaders in src/search skip the header's `#` lines.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const stemmer = require("wink-porter2-stemmer/package.json") as { version: string };

/** How the stems of every table were made: the search index's own `stem`, so a look-up matches. */
export const STEMMER = `Porter2 (Snowball English) stemmer of npm wink-porter2-stemmer ${stemmer.version}, through stem() in src/search/tokenize.ts`;

/**
 * Writes `data/search/<name>`: the header lines as `# ` comments, then one table line each.
 * Returns the file's size in bytes.
 */
export function writeTable(name: string, header: readonly string[], lines: readonly string[]): number {
  const text = `${header.map((line) => `# ${line}`).join("\n")}\n${lines.join("\n")}\n`;
  writeFileSync(new URL(`../../data/search/${name}`, import.meta.url), text);
  return Buffer.byteLength(text);
}
