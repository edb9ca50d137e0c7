import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { FakeBridge } from "../fake-bridge.ts";
import type { HostBridge, SandboxFileInfo } from "../types.ts";
import { createTestPythonRuntime, runPython, testBridge } from "./test-runtime.ts";

const runtime = await createTestPythonRuntime(1);
after(() => runtime.close());
const bridge = testBridge();
const run = (code: string, options = {}) => runPython(runtime, bridge, code, options);

describe("PythonRuntime: what every tier does, in Python", () => {
  it("returns the last expression, or `result`", async () => {
    assert.equal((await run("1 + 1")).result, 2);
    assert.deepEqual((await run("result = {'a': [1, 2]}\nNone")).result, { a: [1, 2] });
  });

  it("supports top-level await and asyncio", async () => {
    const result = await run("import asyncio\nawait asyncio.sleep(0.01)\n'slept'");
    assert.equal(result.result, "slept");
  });

  it("passes context as a dict and its keys as variables", async () => {
    const result = await run("[context['n'], n, context['s']]", { context: { n: 3, s: "x" } });
    assert.deepEqual(result.result, [3, 3, "x"]);
  });

  it("captures print as logs", async () => {
    const result = await run("print('hello', 1)\nimport sys\nprint('oops', file=sys.stderr)");
    assert.deepEqual(result.logs, [
      { level: "log", message: "hello 1" },
      { level: "error", message: "oops" },
    ]);
  });

  it("calls tools by identifier and by original name, results as dicts", async () => {
    const result = await run(
      "a = await tools.my_server.get_sum(a=1, b=2)\nb = await tools['my-server']['get-sum']({'a': 3, 'b': 4})\n[a, b]",
    );
    assert.deepEqual(result.result, [{ sum: 3 }, { sum: 7 }]);
    assert.equal(result.toolResultBytes, 18);
  });

  it("takes a 2 MB tool result intact, non-ASCII included", async () => {
    const text = 'é"}\n'.repeat(500_000);
    const result = await run(
      "r = await tools.my_server.echo(text=context['text'])\n[len(r['text']), r['text'] == context['text']]",
      {
        context: { text },
      },
    );
    assert.deepEqual(result.result, [text.length, true], JSON.stringify(result.error));
  });

  it("runs 20 tool calls at once with asyncio.gather", async () => {
    const result = await run(
      "import asyncio\nr = await asyncio.gather(*[tools.my_server.get_sum(a=i, b=1) for i in range(20)])\n[x['sum'] for x in r]",
    );
    assert.deepEqual(
      result.result,
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it("raises a catchable ToolError with code and data; uncaught it is kind tool, PolicyError kind policy", async () => {
    const caught = await run(
      "try:\n    await tools.my_server.fail()\nexcept ToolError as e:\n    result = [type(e).__name__, str(e), e.code, e.data]",
    );
    assert.deepEqual(caught.result, ["ToolError", "the tool failed", "tool.failed", { why: "because" }]);
    assert.equal((await run("await tools.my_server.fail()")).error?.kind, "tool");
    assert.equal((await run("await tools.my_server.refused()")).error?.kind, "policy");
  });

  it("reports a syntax error with its line, a runtime error with the agent's line", async () => {
    const syntax = await run("x = 1\ny = (\n");
    assert.equal(syntax.error?.kind, "syntax");
    assert.equal(syntax.error?.line, 2);
    const runtimeError = await run("x = 1\n\nraise ValueError('bad')");
    assert.equal(runtimeError.error?.kind, "runtime");
    assert.equal(runtimeError.error?.name, "ValueError");
    assert.equal(runtimeError.error?.line, 3);
    assert.doesNotMatch(runtimeError.error?.stack ?? "", /toolscript_driver|\/lib\/|pyodide/);
  });

  it("has the standard library, without downloading anything", async () => {
    const result = await run(
      "import json, statistics, re, datetime, collections, itertools, math, csv, io\n" +
        "[statistics.median([1, 5, 3]), json.dumps({'a': 1}), math.floor(2.5)]",
    );
    assert.deepEqual(result.result, [3, '{"a": 1}', 2]);
    const micropip = await run("import micropip");
    assert.equal(micropip.error?.name, "ModuleNotFoundError");
  });

  it("keeps nothing from one execution to the next: builtins, modules, files", async () => {
    const first = await run(
      "import builtins, sys, json\nbuiltins.LEAK = 1\njson.LEAK = 2\nopen('/tmp/leak.txt', 'w').write('x')\nsys.modules['leak'] = json\n'ok'",
    );
    assert.equal(first.result, "ok");
    const second = await run(
      "import builtins, os, sys, json\n[hasattr(builtins, 'LEAK'), hasattr(json, 'LEAK'), os.path.exists('/tmp/leak.txt'), 'leak' in sys.modules]",
    );
    assert.deepEqual(second.result, [false, false, false, false]);
  });

  it("runs 4 executions at once, each with its own result", async () => {
    const results = await Promise.all(
      [0, 1, 2, 3].map((n) => run(`import asyncio\nawait asyncio.sleep(0.01)\n${n} * 10`)),
    );
    assert.deepEqual(
      results.map((result) => result.result),
      [0, 10, 20, 30],
    );
  });

  it("lets a reply in while another task spins on sleep(0); a reply nobody waits for any more is ignored", async () => {
    const slow = new FakeBridge({
      "s/slow": () => new Promise((resolve) => setTimeout(resolve, 100, { late: true })),
      "s/echo": (args) => args,
    });
    const result = await runPython(
      runtime,
      slow,
      [
        "import asyncio",
        "try:",
        "    await asyncio.wait_for(tools.s.slow(), 0.01)",
        "    timed_out = False",
        "except TimeoutError:",
        "    timed_out = True",
        "await asyncio.sleep(0.3)",
        "done = False",
        "async def spin():",
        "    n = 0",
        "    while not done:",
        "        await asyncio.sleep(0)",
        "        n += 1",
        "    return n",
        "async def call():",
        "    global done",
        "    reply = await tools.s.echo(x=1)",
        "    done = True",
        "    return reply",
        "n, reply = await asyncio.gather(spin(), call())",
        "from toolscript_driver import deliver",
        "deliver(10_000, 'not json')",
        "try:",
        "    await search_tools('x')",
        "except Exception as e:",
        "    searched = str(e)",
        "[timed_out, n > 0, reply, searched]",
      ].join("\n"),
    );
    assert.deepEqual(
      result.result,
      [true, true, { x: 1 }, "search_tools is not available in this gateway"],
      JSON.stringify(result.error),
    );
  });

  it("reads and writes the session's workspace through the host's operations", async () => {
    const files = new Map<string, string>();
    const info = (path: string): SandboxFileInfo => ({ path, size: files.get(path)?.length ?? 0, mtime: 1 });
    const workspace: HostBridge = {
      callTool: (server, tool, args, signal) => bridge.callTool(server, tool, args, signal),
      workspace: {
        readFile: (path) => files.get(path) ?? "",
        writeFile: (path, data) => {
          files.set(path, String(data));
          return info(path);
        },
        list: () => [...files.keys()].map(info),
        remove: (path) => {
          files.delete(path);
        },
      },
    };
    const result = await runtime.run({
      code: "await workspace.write_file('notes/a.txt', 'hello')\n[await workspace.read_file('notes/a.txt'), [f['path'] for f in await workspace.list()]]",
      tools: bridge.namespace(),
      bridge: workspace,
      timeoutMs: 5_000,
      memoryMb: 64,
      maxLogBytes: 1_000,
    });
    assert.deepEqual(result.result, ["hello", ["notes/a.txt"]], JSON.stringify(result.error));
    assert.equal(files.get("notes/a.txt"), "hello");
  });

  it("passes skills to the driver as importable modules", async () => {
    const result = await run("from skills.double import double\ndouble(21)", {
      skills: { double: "def double(x):\n    return x * 2\n" },
    });
    assert.equal(result.result, 42);
  });
});
