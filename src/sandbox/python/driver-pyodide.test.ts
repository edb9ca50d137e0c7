import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pythonDriverFiles } from "./driver-files.ts";

/** The driver's files as pyrt loads them, and the driver inside Pyodide itself with a JavaScript host. */

describe("python driver files", () => {
  test("lists the package's .py files, not the test harness", () => {
    const paths = pythonDriverFiles().map((file) => file.path);
    assert.ok(paths.includes("toolscript_driver/__init__.py"));
    assert.ok(paths.includes("toolscript_driver/run.py"));
    assert.ok(paths.every((path) => path.endsWith(".py") && !path.includes("harness")));
    const run = pythonDriverFiles().find((file) => file.path === "toolscript_driver/run.py");
    assert.match(
      run!.source,
      /async def run\(code, context_json, tools_json, limits_json, host, skills=None\)/,
    );
  });
});

describe("python driver under Pyodide", () => {
  test("runs with a JavaScript host: replies as JS strings, skills as a JS object", async () => {
    const { loadPyodide } = await import("pyodide");
    const pyodide = await loadPyodide();
    pyodide.FS.mkdirTree("/driver/toolscript_driver");
    for (const file of pythonDriverFiles()) pyodide.FS.writeFile(`/driver/${file.path}`, file.source);
    pyodide.runPython("import sys; sys.path.insert(0, '/driver')");
    const driver = pyodide.pyimport("toolscript_driver") as {
      run(...args: unknown[]): Promise<string>;
      deliver(id: number, replyJson: string): void;
    };
    const logs: unknown[] = [];
    const replies = {
      call(server: string, tool: string, argsJson: string) {
        const args = JSON.parse(argsJson) as { a: number; b: number };
        if (tool === "fail")
          return JSON.stringify({ ok: false, error: { name: "ToolError", message: "no" } });
        return JSON.stringify({ ok: true, json: JSON.stringify({ sum: args.a + args.b, server, tool }) });
      },
      search(query: string, limit: unknown, minScore: unknown) {
        return JSON.stringify({ ok: true, json: JSON.stringify([query, limit, minScore ?? "absent"]) });
      },
      op(name: string, argsJson: string) {
        return JSON.stringify({ ok: true, json: JSON.stringify({ text: `${name} ${argsJson}` }) });
      },
    };
    let nextId = 1;
    const host = {
      // As the runner does: the request leaves at once, its reply comes back later through `deliver`.
      send(kind: "call" | "search" | "op", a: never, b: never, c: never) {
        const id = nextId++;
        const reply = replies[kind](a, b, c);
        setTimeout(() => driver.deliver(id, reply), 0);
        return id;
      },
      log(level: string, message: string) {
        logs.push([level, message]);
      },
    };
    const namespace = JSON.stringify({
      everything: { server: "everything", tools: { get_sum: "get-sum", fail: "fail" } },
    });
    const limits = JSON.stringify({ maxLogBytes: 1000, maxOutputBytes: 10_000 });
    const skills = {
      helper: "async def twice(n):\n    return (await tools.everything.get_sum(a=n, b=n))['sum']\n",
    };
    const run = async (code: string) =>
      JSON.parse(await driver.run(code, JSON.stringify({ n: 4 }), namespace, limits, host, skills));
    assert.deepEqual(
      await run(
        [
          "from skills.helper import twice",
          "print('hi')",
          'a = await tools.everything["get-sum"](a=1, b=2)',
          "[a, await twice(n), await search_tools('q'), await workspace.read_file('f.txt')]",
        ].join("\n"),
      ),
      {
        result: [
          { sum: 3, server: "everything", tool: "get-sum" },
          8,
          ["q", 5, "absent"],
          'workspace.readFile {"path": "f.txt", "encoding": "utf8"}',
        ],
      },
    );
    const failed = await run("x = 1\nawait tools.everything.fail()");
    assert.deepEqual([failed.error.kind, failed.error.name, failed.error.line], ["tool", "ToolError", 2]);
    assert.doesNotMatch(failed.error.stack, /toolscript_driver|asyncio|webloop|pyodide/);
    assert.deepEqual(await run("'ToolError' in dir(__builtins__)"), { result: true });
    // JavaScript's null arrives as Pyodide's jsnull, not None: no context, no skills.
    assert.deepEqual(JSON.parse(await driver.run("context", null, namespace, limits, host, null)), {
      result: {},
    });
    assert.deepEqual(logs, [["log", "hi"]]);
  });
});
