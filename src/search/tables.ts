import { readFileSync } from "node:fs";

/**
 * The text tables shipped in the package's `data/search/` (found from src/search and
 * dist/search alike), made by the scripts in `scripts/search-data/`. Each starts with a
 * header of `#` lines saying what made it and how its lines read.
 */
export function tableFile(name: string): URL {
  return new URL(`../../data/search/${name}`, import.meta.url);
}

const NEWLINE = 10;
const HASH = 35;

/**
 * The lines of a text table, header (`#` lines) and empty lines left out. Each line is decoded
 * on its own: what a parser keeps of it (V8 shares a slice's parent string) then keeps at most
 * that line alive, never the whole file.
 */
export function* tableLines(bytes: Uint8Array): Generator<string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let start = 0; start < buffer.length; ) {
    let end = buffer.indexOf(NEWLINE, start);
    if (end < 0) end = buffer.length;
    if (end > start && buffer[start] !== HASH) yield buffer.toString("utf8", start, end);
    start = end + 1;
  }
}

/**
 * The lines of a shipped table, read now; none if the file cannot be read (a partial
 * install), said on stderr with what search does without it.
 */
export function readTable(name: string, without: string): Iterable<string> {
  const file = tableFile(name);
  try {
    return tableLines(readFileSync(file));
  } catch (error) {
    process.stderr.write(
      `toolscript: search ${without}: cannot read ${file.pathname} (${error instanceof Error ? error.message : String(error)})\n`,
    );
    return [];
  }
}
