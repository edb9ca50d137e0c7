/**
 * Finds the static `import` declarations at the head of a program and blanks
 * them out (keeping every line and column in place), because the program body
 * is compiled as a function where `import` is not allowed. A later step turns
 * the returned declarations into calls to the host (e.g. `skills/<name>`).
 */

export interface StaticImport {
  /** The declaration as written, e.g. `import { f } from "skills/f";`. */
  text: string;
  /** The module specifier, e.g. `skills/f`. */
  specifier: string;
  /** `import type ...`: erased, never reaches run time. */
  typeOnly: boolean;
  /** Offsets in the source; `end` is exclusive. */
  start: number;
  end: number;
  /** 1-based position of the `import` keyword. */
  line: number;
  column: number;
}

export interface SplitImports {
  imports: StaticImport[];
  /** The source with each declaration replaced by spaces (newlines kept). */
  body: string;
}

const IMPORT_KEYWORD = /^import(?=[\s{*"'])/;
const NOT_A_DECLARATION = /^import\s*[(.]/;
const TYPE_ONLY = /^import\s+type[\s{*]/;
const ATTRIBUTES = /^\s*(with|assert)\s*\{/;

export function skipTrivia(source: string, from: number): number {
  let pos = from;
  while (pos < source.length) {
    const char = source[pos];
    if (char === " " || char === "\t" || char === "\n" || char === "\r" || char === "\uFEFF") {
      pos += 1;
    } else if (source.startsWith("//", pos) || (pos === 0 && source.startsWith("#!"))) {
      const newline = source.indexOf("\n", pos);
      pos = newline === -1 ? source.length : newline + 1;
    } else if (source.startsWith("/*", pos)) {
      const close = source.indexOf("*/", pos + 2);
      pos = close === -1 ? source.length : close + 2;
    } else {
      break;
    }
  }
  return pos;
}

/** Reads a string literal starting at `from` (a quote); returns its value and the offset after it. */
function readString(source: string, from: number): { value: string; end: number } | undefined {
  const quote = source[from];
  let value = "";
  for (let pos = from + 1; pos < source.length; pos += 1) {
    const char = source[pos];
    if (char === quote) return { value, end: pos + 1 };
    if (char === "\n") return undefined;
    if (char === "\\") {
      pos += 1;
      value += source[pos] ?? "";
    } else {
      value += char;
    }
  }
  return undefined;
}

/** Finds the end of the import declaration starting at `start`, and its specifier. */
function readDeclaration(source: string, start: number): { specifier: string; end: number } | undefined {
  let depth = 0;
  for (let pos = start; pos < source.length; pos += 1) {
    const char = source[pos];
    if (char === "{") depth += 1;
    else if (char === "}") depth -= 1;
    else if (char === ";" && depth === 0) return undefined;
    else if (char === '"' || char === "'") {
      const literal = readString(source, pos);
      if (literal === undefined) return undefined;
      pos = literal.end - 1;
      if (depth > 0) continue;
      let end = literal.end;
      const attributes = ATTRIBUTES.exec(source.slice(end));
      if (attributes) {
        const close = source.indexOf("}", end + attributes[0].length);
        if (close === -1) return undefined;
        end = close + 1;
      }
      const afterSpaces = end + (/^[ \t]*/.exec(source.slice(end))?.[0].length ?? 0);
      if (source[afterSpaces] === ";") end = afterSpaces + 1;
      return { specifier: literal.value, end };
    }
  }
  return undefined;
}

function positionOf(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, offset);
  const lastNewline = before.lastIndexOf("\n");
  return { line: before.split("\n").length, column: offset - lastNewline };
}

function blank(text: string): string {
  return text.replace(/[^\n\r]/g, " ");
}

/** Splits the leading import declarations off a program. Malformed ones are left for the parser to report. */
export function splitStaticImports(source: string): SplitImports {
  const imports: StaticImport[] = [];
  let body = source;
  let pos = skipTrivia(source, 0);
  while (pos < source.length) {
    const rest = source.slice(pos, pos + 200);
    if (!IMPORT_KEYWORD.test(rest) || NOT_A_DECLARATION.test(rest)) break;
    const declaration = readDeclaration(source, pos);
    if (declaration === undefined) break;
    const text = source.slice(pos, declaration.end);
    imports.push({
      text,
      specifier: declaration.specifier,
      typeOnly: TYPE_ONLY.test(text),
      start: pos,
      end: declaration.end,
      ...positionOf(source, pos),
    });
    body = body.slice(0, pos) + blank(text) + body.slice(declaration.end);
    pos = skipTrivia(source, declaration.end);
  }
  return { imports, body };
}
