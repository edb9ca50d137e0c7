import assert from "node:assert/strict";
import { SourceMap } from "node:module";
import { describe, it } from "node:test";
import { compileProgram } from "./compile.ts";

async function compiled(source: string, language: "typescript" | "javascript" = "typescript") {
  const result = await compileProgram(source, language);
  if (!result.ok) throw new Error(`unexpected compile error: ${result.error.message}`);
  return result;
}

/** Runs the emitted body as an async function, as a sandbox would. */
async function evaluate(source: string): Promise<unknown> {
  const { js } = await compiled(source);
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    body: string,
  ) => () => Promise<unknown>;
  return new AsyncFunction(js)();
}

async function compileError(source: string) {
  const result = await compileProgram(source, "typescript");
  if (result.ok) throw new Error("expected a compile error");
  return result.error;
}

describe("compileProgram", () => {
  it("strips types and keeps a top-level return", async () => {
    assert.equal(
      await evaluate("interface P { x: number }\nconst p: P = { x: 2 };\nreturn p.x as number;"),
      2,
    );
  });

  it("returns the last expression statement, REPL style", async () => {
    assert.equal(await evaluate("const x = 1; x + 1"), 2);
    assert.deepEqual(await evaluate("const o = { a: 1 };\n({ ...o, b: 2 })"), { a: 1, b: 2 });
    assert.equal(await evaluate("let n = 0;\nfor (const i of [1, 2, 3]) n += i;\nn"), 6);
    assert.equal(await evaluate("const x = 1;"), undefined);
    assert.equal(await evaluate("if (true) { 5 }"), undefined);
  });

  it("allows top-level await", async () => {
    assert.equal(await evaluate("const v = await Promise.resolve(20);\nawait v + 1"), 21);
  });

  it("compiles JavaScript too", async () => {
    assert.match((await compiled("const x = 1;\nx", "javascript")).js, /return x;/);
    const error = await compileProgram("const x: number = 1;", "javascript");
    assert.equal(error.ok, false);
  });

  it("maps every emitted line back to the agent's line", async () => {
    const source =
      "// a comment\ntype T = { a: number };\nconst t: T = { a: 1 };\n\nconst y = t.a +\n  2;\nMath.max(y, 2)";
    const { js, sourceMap } = await compiled(source);
    assert.deepEqual(sourceMap.sources, ["agent.ts"]);
    const map = new SourceMap({ ...sourceMap, file: "agent.ts", sourceRoot: "", sourcesContent: [] });
    const lines = js.split("\n");
    const originals = lines.map((line, index) => {
      const column = line.length - line.trimStart().length;
      const entry = map.findEntry(index, column) as { originalLine?: number; originalColumn?: number };
      return [entry.originalLine, entry.originalColumn];
    });
    assert.deepEqual(lines, ["  const t = { a: 1 };", "  const y = t.a + 2;", "  return Math.max(y, 2);"]);
    assert.deepEqual(originals, [
      [2, 0],
      [4, 0],
      [6, 0],
    ]);
    // Columns after the inserted `return` still point at the agent's text.
    const entry = map.findEntry(2, lines[2]?.indexOf("y") ?? -1) as { originalColumn?: number };
    assert.equal(entry.originalColumn, 9);
  });

  it("reports syntax errors at the agent's line and column with the offending line", async () => {
    const error = await compileError("const a = 1;\nconst b = ;\n");
    assert.equal(error.kind, "syntax");
    assert.equal(error.name, "SyntaxError");
    assert.equal(error.line, 2);
    assert.equal(error.column, 11);
    assert.equal(error.message, 'Unexpected ";" (line 2, column 11)\n2 | const b = ;\n              ^');
  });

  it("counts columns in characters, not bytes", async () => {
    const error = await compileError("const é = 'ü' +;");
    assert.equal(error.line, 1);
    assert.equal(error.column, 16);
  });

  it("reports a program that ends too early on its last line", async () => {
    const error = await compileError("const a = [1,\n  2,\n");
    assert.equal(error.line, 2);
    assert.match(error.message, /Unexpected end of input/);
  });

  it("turns skill imports into awaited loader calls on the same lines, and erases type-only imports", async () => {
    const result = await compiled(
      '// header\nimport { summarize, type T, b as c } from "skills/summarize";\nimport * as s from "skills/x";\nimport d, { e } from "skills/y";\nimport "skills/z";\nsummarize(c)',
    );
    const lines = result.js.split("\n").map((line) => line.trim());
    assert.deepEqual(lines, [
      'const { summarize, b: c } = await __toolscript_import("summarize", ["summarize", "b"]);',
      'const s = await __toolscript_import("x");',
      'const { default: d, e } = await __toolscript_import("y", ["default", "e"]);',
      'await __toolscript_import("z");',
      "return summarize(c);",
    ]);
    const map = new SourceMap({ ...result.sourceMap, file: "agent.ts", sourceRoot: "", sourcesContent: [] });
    assert.equal((map.findEntry(4, 9) as { originalLine?: number }).originalLine, 5);
    assert.equal(
      (await compiled('import type { T } from "x";\nconst v: T = 1;\nv')).js,
      "  const v = 1;\n  return v;",
    );
  });

  it('turns imports of "toolscript/analysis" into loader calls by specifier, and refuses other "toolscript/..." modules', async () => {
    const result = await compiled(
      'import { aggregate, type Metric } from "toolscript/analysis";\nimport * as analysis from "toolscript/analysis";\naggregate',
    );
    assert.deepEqual(
      result.js.split("\n").map((line) => line.trim()),
      [
        'const { aggregate } = await __toolscript_import("toolscript/analysis", ["aggregate"]);',
        'const analysis = await __toolscript_import("toolscript/analysis");',
        "return aggregate;",
      ],
    );
    const error = await compileError('import { x } from "toolscript/other";');
    assert.match(
      error.message,
      /Cannot import "toolscript\/other": .* and the built-in "toolscript\/analysis"/,
    );
  });

  it("refuses value imports of anything but skills, naming the line", async () => {
    const error = await compileError('// header\nimport { readFile } from "node:fs";\nreadFile("x")');
    assert.equal(error.kind, "syntax");
    assert.equal(error.line, 2);
    assert.match(
      error.message,
      /Cannot import "node:fs": only saved skills can be imported, as "skills\/<name>"/,
    );
  });

  it("explains an import in the middle of the program", async () => {
    const error = await compileError('const a = 1;\nimport { b } from "b";');
    assert.equal(error.line, 2);
    assert.match(error.message, /`import` declarations must come before other statements/);
  });

  it("lowers syntax the sandbox's V8 lacks, keeping line numbers", async () => {
    const result = await compiled("class A { @((t: unknown) => t) m() { return 1; } }\nnew A().m()");
    const map = new SourceMap({ ...result.sourceMap, file: "agent.ts", sourceRoot: "", sourcesContent: [] });
    const lines = result.js.split("\n");
    const last = lines.length - 1;
    assert.match(lines[last] ?? "", /return new A\(\)\.m\(\);/);
    assert.equal((map.findEntry(last, 2) as { originalLine?: number }).originalLine, 1);
  });
});
