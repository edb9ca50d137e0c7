import type { Message } from "esbuild";
import type { ExecutionError } from "../sandbox/types.ts";

/** A syntax error at a 1-based position of the agent's source, quoting the offending line. */
export function syntaxError(source: string, text: string, line: number, column: number): ExecutionError {
  const lineText = source.split("\n")[line - 1]?.replace(/\r$/, "") ?? "";
  const gutter = `${line} | `;
  const caret = `${" ".repeat(gutter.length + Math.max(0, column - 1))}^`;
  return {
    kind: "syntax",
    name: "SyntaxError",
    message: `${text} (line ${line}, column ${column})\n${gutter}${lineText}\n${caret}`,
    line,
    column,
  };
}

/** esbuild columns count UTF-8 bytes; the agent counts characters. */
function byteColumnToCharColumn(lineText: string, byteColumn: number): number {
  return Buffer.from(lineText, "utf8").subarray(0, byteColumn).toString("utf8").length;
}

function isBuildFailure(error: unknown): error is { errors: Message[] } {
  return typeof error === "object" && error !== null && Array.isArray((error as { errors?: unknown }).errors);
}

/**
 * Turns an esbuild failure on the wrapped program into a syntax error in the
 * agent's coordinates. `lineOffset` is the number of wrapper lines before the
 * agent's first line.
 */
export function syntaxErrorFromBuild(error: unknown, source: string, lineOffset: number): ExecutionError {
  const first = isBuildFailure(error) ? error.errors[0] : undefined;
  if (first === undefined) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "syntax", name: "SyntaxError", message };
  }
  const sourceLines = source.split("\n");
  const location = first.location;
  if (location === null) return { kind: "syntax", name: "SyntaxError", message: first.text };
  let line = location.line - lineOffset;
  let column = byteColumnToCharColumn(location.lineText, location.column) + 1;
  let text = first.text;
  if (line > sourceLines.length || line < 1) {
    // The parser tripped on the wrapper around the program: the program ended too early.
    line = lastNonBlankLine(sourceLines);
    column = (sourceLines[line - 1]?.length ?? 0) + 1;
    text = "Unexpected end of input (an unclosed bracket, string or block?)";
  } else if (/^\s*(import|export)\b(?!\s*[(.])/.test(location.lineText)) {
    text = `${text} (\`import\` declarations must come before other statements; \`export\` is not supported)`;
  }
  return syntaxError(source, text, line, column);
}

function lastNonBlankLine(lines: readonly string[]): number {
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    if (lines[index]?.trim()) return index + 1;
  }
  return 1;
}
