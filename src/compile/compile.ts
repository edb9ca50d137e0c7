import { transform } from "esbuild";
import type { ExecutionError, ProgramSourceMap } from "../sandbox/types.ts";
import { findProgramShape } from "./program-shape.ts";
import { resolveSkillImports } from "./skill-imports.ts";
import { decodeMappings, encodeMappings, type Segment } from "./source-map-codec.ts";
import { splitStaticImports } from "./static-imports.ts";
import { syntaxErrorFromBuild } from "./syntax-error.ts";

export type CompileLanguage = "typescript" | "javascript";

export type CompileResult =
  | { ok: true; js: string; sourceMap: ProgramSourceMap }
  | { ok: false; error: ExecutionError };

/** File name the agent's program goes by in source maps and mapped stacks. */
export const PROGRAM_FILE_NAMES: Record<CompileLanguage, string> = {
  typescript: "agent.ts",
  javascript: "agent.js",
};

const MAIN_NAME = "__toolscript_main";
// On its own line, so the agent's line N is line N + 1 of what esbuild sees and columns are untouched.
const WRAPPER_HEAD = `async function ${MAIN_NAME}() {\n`;
const WRAPPER_TAIL = "\n}\n";
const WRAPPER_HEAD_LINES = 1;
const RETURN_KEYWORD = "return ";
// The sandbox runs on this very V8, so only syntax it lacks gets lowered.
const TARGET = `node${process.versions.node}`;

/** Moves esbuild's map of one output line onto the agent's lines, dropping wrapper positions. */
function toAgentSegments(segments: readonly Segment[], sourceLineCount: number): Segment[] {
  const out: Segment[] = [];
  for (const segment of segments) {
    if (segment.length === 1) continue;
    const line = segment[2] - WRAPPER_HEAD_LINES;
    if (line < 0 || line >= sourceLineCount) continue;
    const moved = [...segment] as Segment;
    moved[2] = line;
    out.push(moved);
  }
  return out;
}

/**
 * Compiles an agent's program (a script body: top-level `await`, a top-level
 * `return`, and otherwise the value of a trailing expression statement is the
 * result) into the body of an async function, with a source map back to the
 * agent's lines. Types are stripped, never checked.
 */
export async function compileProgram(source: string, language: CompileLanguage): Promise<CompileResult> {
  const split = splitStaticImports(source);
  // `import ... from "skills/<name>"` becomes an awaited loader call on the same line.
  const resolved = resolveSkillImports(split.imports, source, split.body);
  if (!resolved.ok) return { ok: false, error: resolved.error };
  const body = resolved.body;

  const fileName = PROGRAM_FILE_NAMES[language];
  let output: { code: string; map: string };
  try {
    // Async: while esbuild works, the event loop is free to prepare the next isolate.
    output = await transform(WRAPPER_HEAD + body + WRAPPER_TAIL, {
      loader: language === "typescript" ? "ts" : "js",
      sourcemap: "external",
      sourcesContent: false,
      sourcefile: fileName,
      target: TARGET,
      logLevel: "silent",
      charset: "utf8",
    });
  } catch (error) {
    return { ok: false, error: syntaxErrorFromBuild(error, source, WRAPPER_HEAD_LINES) };
  }

  let shape: ReturnType<typeof findProgramShape>;
  try {
    shape = findProgramShape(output.code, MAIN_NAME);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { kind: "syntax", name: "SyntaxError", message } };
  }

  const rawMap = JSON.parse(output.map) as { names?: string[]; mappings: string };
  const mapLines = decodeMappings(rawMap.mappings);
  const outLines = output.code.split("\n");
  const last = shape.lastExpression;
  if (last) {
    const text = outLines[last.line] ?? "";
    outLines[last.line] = text.slice(0, last.column) + RETURN_KEYWORD + text.slice(last.column);
    mapLines[last.line] = (mapLines[last.line] ?? []).map((segment) => {
      if (segment[0] < last.column) return segment;
      const moved = [...segment] as Segment;
      moved[0] += RETURN_KEYWORD.length;
      return moved;
    });
  }

  // Anything esbuild put outside the wrapper (helpers for lowered syntax) goes first.
  const jsLines: string[] = [];
  const jsMap: Segment[][] = [];
  const sourceLineCount = source.split("\n").length;
  outLines.forEach((text, index) => {
    if (index >= shape.headerLine && index <= shape.closingLine) return;
    if (text.trim() === "") return;
    jsLines.push(text);
    jsMap.push([]);
  });
  for (let index = shape.headerLine + 1; index < shape.closingLine; index += 1) {
    jsLines.push(outLines[index] ?? "");
    jsMap.push(toAgentSegments(mapLines[index] ?? [], sourceLineCount));
  }

  return {
    ok: true,
    js: jsLines.join("\n"),
    sourceMap: {
      version: 3,
      sources: [fileName],
      names: rawMap.names ?? [],
      mappings: encodeMappings(jsMap),
    },
  };
}
