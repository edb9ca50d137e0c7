import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Catalog } from "../catalog/catalog.ts";
import { renderTree } from "../catalog/declaration/tree.ts";
import { MAX_REPORTED_DIAGNOSTICS, ProgramTypeChecker } from "./type-check.ts";

function checker(): { catalog: Catalog; checker: ProgramTypeChecker } {
  const catalog = new Catalog(["everything", "my-server"]);
  catalog.setServerTools("everything", [
    {
      name: "get-sum",
      description: "Adds two numbers.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    },
    {
      name: "echo",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
      outputSchema: { type: "object", properties: { echoed: { type: "string" } }, required: ["echoed"] },
    },
  ]);
  catalog.setServerTools("my-server", [{ name: "ping", inputSchema: { type: "object" } }]);
  return {
    catalog,
    checker: new ProgramTypeChecker({
      version: () => catalog.version,
      tree: () => renderTree(catalog.tools(), { untypedOutput: "any" }),
    }),
  };
}

const noSkills = () => undefined;

describe("ProgramTypeChecker", () => {
  const { catalog, checker: typeChecker } = checker();
  after(() => typeChecker.close());
  const check = (source: string, skillDeclaration: (name: string) => string | undefined = noSkills) =>
    typeChecker.check({ source, skillDeclaration });

  test("a correct program passes: top-level await and return, context, globals, original names", async () => {
    const source = [
      'const sum = await tools.everything["get-sum"]({ a: 1, b: 2 });',
      "const same = await tools.everything.get_sum({ a: context.a, b: 2 });",
      'const { echoed } = await tools.everything.echo({ message: "hi" });',
      'await tools["my-server"].ping();',
      'const found = await searchTools("sum");',
      'const files = await workspace.list("");',
      "console.log(found[0]?.path, files.length, sum.whatever, same);",
      "function loose(x) { return x.y; }",
      "if (loose(1)) return echoed.toUpperCase();",
      "echoed.length",
    ].join("\n");
    assert.equal(await check(source), undefined);
  });

  test("a wrong argument type: kind `type` at the argument, in the agent's coordinates", async () => {
    const error = await check(
      'const x = 1;\nconst r = await tools.everything.get_sum({ a: 1, b: "2" });\nreturn r;',
    );
    assert.equal(error?.kind, "type");
    assert.equal(error?.line, 2);
    assert.equal(error?.column, 50);
    assert.match(error?.message ?? "", /line 2, column 50: Type 'string' is not assignable to type 'number'/);
    assert.match(error?.message ?? "", /the program did not run/);
  });

  test("columns on the first line are the agent's (the wrapper opens there)", async () => {
    const error = await check("await tools.everything.nope();");
    assert.equal(error?.line, 1);
    assert.equal(error?.column, 24);
    assert.match(error?.message ?? "", /Property 'nope' does not exist on type 'tools\.everything'/);
  });

  test("an unknown tool, an unknown server, a misspelled property; all of them listed", async () => {
    const source = [
      "await tools.everything.get_summ({ a: 1, b: 2 });",
      "await tools.nowhere.ping();",
      'const r = await tools.everything.echo({ mesage: "x" });',
      "r.echoedd;",
    ].join("\n");
    const error = await check(source);
    assert.equal(error?.kind, "type");
    assert.deepEqual([error?.line, error?.column], [1, 24]);
    const data = error?.data as {
      diagnostics: { line: number; column: number; message: string }[];
      total: number;
    };
    assert.deepEqual(
      data.diagnostics.map((entry) => [entry.line, entry.column]),
      [
        [1, 24],
        [2, 13],
        [3, 41],
        [4, 3],
      ],
    );
    assert.match(data.diagnostics[0]?.message ?? "", /Did you mean 'get_sum'/);
    assert.match(data.diagnostics[3]?.message ?? "", /Did you mean 'echoed'/);
  });

  test("after imports, only the body's first line moves; imports resolve to saved skills", async () => {
    const declaration = "export declare function double(n: number): number;\n";
    const skills = (name: string) => (name === "math" ? declaration : undefined);
    assert.equal(await check('import { double } from "skills/math";\nreturn double(2);', skills), undefined);
    const wrong = await check('import { double } from "skills/math";\nreturn double("2");', skills);
    assert.deepEqual([wrong?.line, wrong?.column], [2, 15]);
    const sameLine = await check('import { double } from "skills/math"; return double("2");', skills);
    assert.deepEqual([sameLine?.line, sameLine?.column], [1, 53]);
    const missing = await check('import { triple } from "skills/math";\nreturn triple(2);', skills);
    assert.deepEqual([missing?.line, missing?.column], [1, 10]);
    // A skill the session cannot see is left to the import, which fails before anything else runs.
    assert.equal(await check('import { f } from "skills/nowhere";\nreturn f("x");', skills), undefined);
  });

  test("leading comments stay on top: `// @ts-nocheck` skips the check, positions hold", async () => {
    assert.equal(await check("// @ts-nocheck\nawait tools.everything.nope();"), undefined);
    const error = await check("#!/usr/bin/env toolscript\n/* note */ await tools.everything.nope();");
    assert.deepEqual([error?.line, error?.column], [2, 35]);
  });

  test("many errors are bounded in the message", async () => {
    const source = Array.from({ length: 30 }, (_, i) => `tools.everything.nope${i}();`).join("\n");
    const error = await check(source);
    const data = error?.data as { diagnostics: unknown[]; total: number };
    assert.equal(data.total, 30);
    assert.equal(data.diagnostics.length, MAX_REPORTED_DIAGNOSTICS);
    assert.match(error?.message ?? "", /\(20 more not shown\)/);
  });

  test("follows the catalog: a tool added later type-checks", async () => {
    const source = "await tools.everything.added({});";
    assert.equal((await check(source))?.kind, "type");
    catalog.setServerTools("everything", [{ name: "added", inputSchema: { type: "object" } }]);
    assert.equal(await check(source), undefined);
  });

  test("types that never finish, or overflow the parser, cost only the worker: stopped, replaced, reported", async () => {
    const bounded = new ProgramTypeChecker(
      { version: () => catalog.version, tree: () => renderTree(catalog.tools()) },
      { timeoutMs: 5000 },
    );
    try {
      assert.equal(await bounded.check({ source: "return 1", skillDeclaration: noSkills }), undefined);
      const exploding = [
        "type Build<N extends number, A extends unknown[] = []> = A['length'] extends N ? A : Build<N, [...A, A]>;",
        "const x: Build<999> = null as any;",
        "return x;",
      ].join("\n");
      const stopped = await bounded.check({ source: exploding, skillDeclaration: noSkills });
      assert.equal(stopped?.kind, "type");
      assert.equal(stopped?.code, "typecheck.failed");
      assert.match(stopped?.message ?? "", /did not run/);
      const deep = `const o = ${"[".repeat(5000)}${"]".repeat(5000)};`;
      const overflow = await bounded.check({ source: deep, skillDeclaration: noSkills });
      assert.equal(overflow?.code, "typecheck.failed");
      assert.match(overflow?.message ?? "", /stack/);
      assert.equal(await bounded.check({ source: "return 2", skillDeclaration: noSkills }), undefined);
      const wrong = await bounded.check({ source: "tools.everything.nope();", skillDeclaration: noSkills });
      assert.equal(wrong?.line, 1);
    } finally {
      await bounded.close();
    }
  });

  test("an idle worker is stopped after idleMs and started again by the next check, with the same answers", async () => {
    const idle = new ProgramTypeChecker(
      { version: () => catalog.version, tree: () => renderTree(catalog.tools()) },
      { idleMs: 300 },
    );
    try {
      const wrong = "await tools.everything.echo({ message: 1 });";
      const before = await idle.check({ source: wrong, skillDeclaration: noSkills });
      assert.equal(before?.kind, "type");
      assert.equal(idle.loaded, true);
      const deadline = Date.now() + 10_000;
      while (idle.loaded && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(idle.loaded, false, "the worker is stopped once idle");
      // A new program (no cached answer): the worker starts again and checks it.
      const again = await idle.check({ source: `${wrong}\nreturn 1;`, skillDeclaration: noSkills });
      assert.equal(again?.kind, "type");
      assert.equal(again?.line, before?.line);
      assert.equal(idle.loaded, true);
      idle.prepare();
      assert.equal(await idle.check({ source: "return 3", skillDeclaration: noSkills }), undefined);
    } finally {
      await idle.close();
    }
    // idleMs 0 (the constructor's default) keeps the worker.
    await check("return 4");
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(typeChecker.loaded, true);
  });
});
