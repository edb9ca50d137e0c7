import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { ExecutionError, ToolNamespace } from "../types.ts";
import { pythonDriverFiles } from "./driver-files.ts";

/**
 * The Python driver run by the machine's CPython (3.11) with a fake host
 * (driver_test_harness.py): the same package pyrt loads into Pyodide.
 */

const HARNESS = fileURLToPath(new URL("./driver_test_harness.py", import.meta.url));

type Behaviour = { sum: true } | { echo: true } | { reply: unknown };

interface RunSpec {
  code: string;
  context?: unknown;
  namespace?: ToolNamespace;
  limits?: { maxLogBytes?: number; maxOutputBytes?: number };
  skills?: Record<string, string>;
}

interface RunRecord {
  isString: boolean;
  outcome: { result?: unknown; error?: ExecutionError };
  logs: { level: string; message: string }[];
  calls: { server: string; tool: string; args: unknown }[];
}

const NAMESPACE: ToolNamespace = {
  everything: { server: "everything", tools: { get_sum: "get-sum", echo: "echo", fail: "fail" } },
  policy: { server: "policy-server", tools: { refused: "refused", invalid: "invalid", capped: "capped" } },
};

function failing(name: string, message: string, code?: string, data?: unknown): Behaviour {
  const error: Record<string, unknown> = { name, message };
  if (code !== undefined) error.code = code;
  if (data !== undefined) error.dataJson = JSON.stringify(data);
  return { reply: { ok: false, error } };
}

const TOOLS: Record<string, Behaviour> = {
  "everything/get-sum": { sum: true },
  "everything/echo": { echo: true },
  "everything/fail": failing("ToolError", "upstream said no", "tool.failed", { content: [{ type: "text" }] }),
  "policy-server/refused": failing("PolicyError", "refused by policy", "policy.denied"),
  "policy-server/invalid": failing("ValidationError", "a: expected number", "validation.input", [
    { path: "a" },
  ]),
  "policy-server/capped": failing("LimitError", "too many tool calls", "limit.tool_calls"),
};

function runPython(runs: RunSpec[]): RunRecord[] {
  const spec = { tools: TOOLS, runs: runs.map((run) => ({ namespace: NAMESPACE, ...run })) };
  const child = spawnSync("python3", [HARNESS], {
    input: JSON.stringify(spec),
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8" },
    timeout: 60_000,
  });
  assert.equal(child.status, 0, `python3 failed: ${child.stderr}`);
  const records = child.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as RunRecord);
  assert.equal(records.length, runs.length);
  for (const record of records) assert.equal(record.isString, true);
  return records;
}

function runOne(run: RunSpec): RunRecord {
  return runPython([run])[0]!;
}

function errorOf(run: RunSpec): ExecutionError {
  const { outcome } = runOne(run);
  assert.ok(outcome.error, `expected an error, got ${JSON.stringify(outcome)}`);
  return outcome.error;
}

describe("python driver: tools", () => {
  test("keyword arguments, one dict, original names by subscript, servers by either name", () => {
    const record = runOne({
      code: [
        "a = await tools.everything.get_sum(a=1, b=2)",
        'b = await tools.everything["get-sum"]({"a": 3, "b": 4})',
        'c = await tools["everything"].echo(x=(1, 2), s={3, 1, 2})',
        "[a, b, c]",
      ].join("\n"),
    });
    assert.deepEqual(record.outcome, { result: [3, 7, { x: [1, 2], s: [1, 2, 3] }] });
    assert.deepEqual(
      record.calls.map((call) => `${call.server}/${call.tool}`),
      ["everything/get-sum", "everything/get-sum", "everything/echo"],
    );
  });

  test("the server alias is the same object; dir() lists the sandbox names", () => {
    const record = runOne({
      code: 'result = [tools["policy-server"] is tools.policy, dir(tools), dir(tools.everything), list(tools.everything)]',
    });
    assert.deepEqual(record.outcome.result, [
      true,
      ["everything", "policy"],
      ["echo", "fail", "get_sum"],
      ["get_sum", "echo", "fail"],
    ]);
  });

  test("keyword arguments and a dict together is a TypeError naming the tool", () => {
    const error = errorOf({ code: 'await tools.everything.get_sum({"a": 1}, b=2)' });
    assert.equal(error.kind, "runtime");
    assert.equal(error.name, "TypeError");
    assert.match(
      error.message,
      /tools\.everything\.get_sum\(\) takes keyword arguments or one dict, not both/,
    );
    const notDict = errorOf({ code: "await tools.everything.get_sum([1, 2])" });
    assert.match(notDict.message, /not a list/);
  });

  test("arguments JSON cannot hold are a TypeError with their path, before any call", () => {
    const record = runOne({ code: "await tools.everything.echo(when=object())" });
    assert.equal(record.outcome.error?.name, "TypeError");
    assert.match(
      record.outcome.error!.message,
      /arguments of tools\.everything\.echo\(\).*args\.when is a object/,
    );
    assert.equal(record.calls.length, 0);
  });

  test("unknown tools and servers name the closest matches", () => {
    const attribute = errorOf({ code: "x = 1\nawait tools.everything.get_sm(a=1)" });
    assert.equal(attribute.name, "AttributeError");
    assert.equal(attribute.line, 2);
    assert.equal(
      attribute.message,
      "Unknown tool tools.everything.get_sm. Did you mean: get_sum? Use search_tools() to find tools.",
    );
    const subscript = errorOf({ code: 'tools["everythin"]' });
    assert.equal(subscript.name, "KeyError");
    assert.match(subscript.message, /^Unknown server tools\.everythin\. Did you mean: everything\?/);
    const none = errorOf({ code: "tools.everything.zzz" });
    assert.match(none.message, /Known: get_sum, echo, fail\./);
  });

  test("search_tools and the workspace go through the host", () => {
    const record = runOne({
      code: [
        'hits = await search_tools("add numbers", limit=3)',
        'info = await workspace.write_file("notes/a.txt", "hello")',
        'text = await workspace.read_file("notes/a.txt")',
        'files = await workspace.list("notes/")',
        "try:",
        '    await workspace.read_file("missing.txt")',
        "except WorkspaceError as error:",
        "    missing = error.code",
        "[hits, info, text, files, missing]",
      ].join("\n"),
    });
    assert.deepEqual(record.outcome.result, [
      [{ query: "add numbers", limit: 3, minScore: null }],
      { path: "notes/a.txt", size: 5, mtime: 1 },
      "hello",
      [{ path: "notes/a.txt", size: 5, mtime: 1 }],
      "workspace.not_found",
    ]);
  });
});

describe("python driver: result and context", () => {
  test("`result` wins over the last expression; the last expression; otherwise nothing", () => {
    const [assigned, last, nothing, awaited] = runPython([
      { code: "result = 41 + 1\n'not this'" },
      { code: "x = 2\nx * 21" },
      { code: "x = 2" },
      { code: "await tools.everything.get_sum(a=40, b=2)" },
    ]);
    assert.deepEqual(assigned!.outcome, { result: 42 });
    assert.deepEqual(last!.outcome, { result: 42 });
    assert.deepEqual(nothing!.outcome, {});
    assert.deepEqual(awaited!.outcome, { result: 42 });
  });

  test("context is a dict and its identifier keys are variables, ours and keywords excepted", () => {
    const record = runOne({
      context: { limit: 3, class: 1, tools: "no", result: "no", "not-id": 2, __builtins__: {} },
      code: "[limit, context['class'], context['not-id'], type(tools).__name__, 'result' in globals()]",
    });
    assert.deepEqual(record.outcome.result, [3, 1, 2, "Tools", false]);
  });

  test("values JSON cannot hold: tuples, sets, NaN and infinities, dates, other objects", () => {
    const record = runOne({
      code: [
        "import datetime",
        "class Thing:",
        "    def __repr__(self):",
        "        return '<thing>'",
        "{'t': (1, 2), 's': {3, 1}, 'mixed': {1}, 'nan': float('nan'), 'inf': float('inf'),",
        " 'd': datetime.date(2024, 1, 2), 'o': Thing(), 1: 'int key', None: 'none key', 'b': b'x'}",
      ].join("\n"),
    });
    assert.deepEqual(record.outcome.result, {
      t: [1, 2],
      s: [1, 3],
      mixed: [1],
      nan: null,
      inf: null,
      d: "2024-01-02",
      o: "<thing>",
      "1": "int key",
      null: "none key",
      b: "b'x'",
    });
  });

  test("a result over maxOutputBytes is a LimitError with its size and the cap", () => {
    const error = errorOf({
      code: "result = ['x' * 1000 for _ in range(100000)]",
      limits: { maxLogBytes: 65536, maxOutputBytes: 10_000 },
    });
    assert.equal(error.kind, "runtime");
    assert.equal(error.name, "LimitError");
    assert.equal(error.code, "limit.output_bytes");
    assert.match(error.message, /is at least \d+ bytes of JSON, over the limit of 10000 bytes/);
    assert.equal((error.data as { limit: number }).limit, 10_000);
    const huge = errorOf({ code: "'x' * 50_000_000", limits: { maxOutputBytes: 10_000 } });
    assert.match(huge.message, /at least 50000002 bytes/);
  });

  test("an un-awaited coroutine as the last expression is awaited; asyncio.run() says to await", () => {
    const [awaited, asyncioRun] = runPython([
      { code: "async def main():\n    return await tools.everything.get_sum(a=2, b=3)\nmain()" },
      { code: "import asyncio\nasync def main():\n    return 1\nasyncio.run(main())" },
    ]);
    assert.deepEqual(awaited!.outcome, { result: 5 });
    const error = asyncioRun!.outcome.error!;
    assert.deepEqual([error.name, error.line], ["RuntimeError", 4]);
    assert.match(error.message, /already runs in an event loop; write `await main\(\)`/);
    assert.deepEqual(asyncioRun!.logs, [], "no 'never awaited' warning");
  });

  test("a circular result is a TypeError naming where", () => {
    const error = errorOf({ code: "a = [1]\na.append(a)\na" });
    assert.equal(error.name, "TypeError");
    assert.match(error.message, /result\[1\] is a circular reference/);
  });
});

describe("python driver: errors", () => {
  test("host failures raise their classes, with the kinds TypeScript reports", () => {
    const [tool, policy, validation, limit] = runPython([
      { code: "await tools.everything.fail()" },
      { code: "await tools.policy.refused()" },
      { code: "\nawait tools.policy.invalid(a='x')" },
      { code: "await tools.policy.capped()" },
    ]).map((record) => record.outcome.error!);
    assert.deepEqual(
      { kind: tool!.kind, name: tool!.name, message: tool!.message, code: tool!.code, data: tool!.data },
      {
        kind: "tool",
        name: "ToolError",
        message: "upstream said no",
        code: "tool.failed",
        data: { content: [{ type: "text" }] },
      },
    );
    assert.match(
      tool!.stack!,
      /File "agent\.py", line 1, in <module>\n {4}await tools\.everything\.fail\(\)/,
    );
    assert.match(tool!.stack!, /\nToolError: upstream said no$/);
    assert.deepEqual([policy!.kind, policy!.name, policy!.code], ["policy", "PolicyError", "policy.denied"]);
    assert.deepEqual(
      [validation!.kind, validation!.name, validation!.line],
      ["runtime", "ValidationError", 2],
    );
    assert.deepEqual(validation!.data, [{ path: "a" }]);
    assert.deepEqual([limit!.kind, limit!.name, limit!.code], ["runtime", "LimitError", "limit.tool_calls"]);
  });

  test("the error classes are builtins, catchable with their code and data", () => {
    const record = runOne({
      code: [
        "import builtins",
        "try:",
        "    await tools.everything.fail()",
        "except ToolError as error:",
        "    result = [error.code, error.data, str(error), builtins.ToolError is ToolError,",
        "              isinstance(error, Exception), ValidationError.__name__]",
      ].join("\n"),
    });
    assert.deepEqual(record.outcome.result, [
      "tool.failed",
      { content: [{ type: "text" }] },
      "upstream said no",
      true,
      true,
      "ValidationError",
    ]);
  });

  test("a syntax error has kind syntax, the agent's line and column, and the text", () => {
    const error = errorOf({ code: "x = 1\ny = (2,\n" });
    assert.deepEqual([error.kind, error.name, error.line, error.column], ["syntax", "SyntaxError", 2, 5]);
    assert.equal(error.message, "'(' was never closed");
    assert.match(error.stack!, /File "agent\.py", line 2\n {4}y = \(2,\n {8}\^/);
    const returned = errorOf({ code: "return 1" });
    assert.equal(returned.kind, "syntax");
    assert.match(returned.message, /'return' outside function.*assign `result = \.\.\.`/);
  });

  test("a runtime error has the innermost agent line and a stack of agent frames only", () => {
    const error = errorOf({
      code: [
        "def inner():",
        "    return {}['missing']",
        "",
        "async def outer():",
        "    return inner()",
        "await outer()",
      ].join("\n"),
    });
    assert.deepEqual([error.kind, error.name, error.line], ["runtime", "KeyError", 2]);
    assert.equal(error.message, "missing");
    const files = [...error.stack!.matchAll(/File "([^"]+)", line (\d+)/g)].map(
      (match) => `${match[1]}:${match[2]}`,
    );
    assert.deepEqual(files, ["agent.py:6", "agent.py:5", "agent.py:2"]);
    assert.doesNotMatch(error.stack!, /toolscript_driver|asyncio|importlib/);
  });

  test("a TaskGroup's single error is reported as itself, several are listed", () => {
    const [single, several] = runPython([
      {
        code: [
          "import asyncio",
          "async with asyncio.TaskGroup() as group:",
          "    group.create_task(tools.everything.fail())",
        ].join("\n"),
      },
      {
        code: [
          "import asyncio",
          "async def bad(n):",
          "    raise ValueError(n)",
          "async with asyncio.TaskGroup() as group:",
          "    group.create_task(bad(1))",
          "    group.create_task(bad(2))",
        ].join("\n"),
      },
    ]);
    const error = single!.outcome.error!;
    assert.deepEqual([error.kind, error.name, error.code], ["tool", "ToolError", "tool.failed"]);
    assert.match(
      error.stack!,
      /ExceptionGroup: unhandled errors in a TaskGroup[\s\S]*ToolError: upstream said no$/,
    );
    const group = several!.outcome.error!;
    assert.equal(group.name, "ExceptionGroup");
    assert.match(group.message, /\(2 sub-exceptions\): ValueError: 1; ValueError: 2$/);
  });

  test("MemoryError is kind memory; sys.exit is a runtime error, not an exit", () => {
    const [memory, exit] = runPython([{ code: "raise MemoryError()" }, { code: "import sys\nsys.exit(3)" }]);
    assert.deepEqual(
      [memory!.outcome.error!.kind, memory!.outcome.error!.name, memory!.outcome.error!.message],
      ["memory", "MemoryError", "Execution exceeded the memory limit"],
    );
    assert.equal(exit!.outcome.error!.name, "SystemExit");
    assert.match(exit!.outcome.error!.message, /sys\.exit\(3\) was called/);
  });
});

describe("python driver: logs", () => {
  test("print and sys.stdout are log, stderr and logging are error, one message per print", () => {
    const record = runOne({
      code: [
        "import sys, logging",
        "print('hello', 42)",
        "print('two\\nlines')",
        "sys.stdout.write('part ')",
        "sys.stdout.write('one\\n')",
        "print('oops', file=sys.stderr)",
        "logging.warning('careful')",
        "sys.stdout.write('unterminated')",
      ].join("\n"),
    });
    assert.deepEqual(record.logs, [
      { level: "log", message: "hello 42" },
      { level: "log", message: "two\nlines" },
      { level: "log", message: "part one" },
      { level: "error", message: "oops" },
      { level: "error", message: "WARNING:root:careful" },
      { level: "log", message: "unterminated" },
    ]);
  });

  test("messages are cut to the log budget and later ones dropped", () => {
    const record = runOne({
      code: "print('x' * 10_000_000)\nprint('after')\n'done'",
      limits: { maxLogBytes: 2000 },
    });
    assert.deepEqual(record.outcome, { result: "done" });
    assert.equal(record.logs.length, 1);
    const message = record.logs[0]!.message;
    assert.ok(Buffer.byteLength(message) <= 2000, `${Buffer.byteLength(message)} bytes`);
    assert.match(message, /^x+… \(\d+ more characters\)$/);
  });
});

describe("python driver: skills and state", () => {
  const skills = {
    stats: "def mean(values):\n    return sum(values) / len(values)\n",
    adder:
      "async def add(a, b):\n    return await tools.everything.get_sum(a=a, b=b)\n\ndef broken():\n    raise ValueError('bad')\n",
  };

  test("skills import by name, see tools, and keep their frames in stacks", () => {
    const [ok, broken, unknown, none] = runPython([
      {
        code: "from skills.stats import mean\nfrom skills import adder\n[mean([1, 2, 3]), await adder.add(2, 3)]",
        skills,
      },
      { code: "from skills.adder import broken\nbroken()", skills },
      { code: "import skills.stat", skills },
      { code: "import skills.stat" },
    ]);
    assert.deepEqual(ok!.outcome, { result: [2, 5] });
    const error = broken!.outcome.error!;
    assert.equal(error.line, 5);
    assert.match(error.stack!, /File "agent\.py", line 2[\s\S]*File "skills\/adder\.py", line 5, in broken/);
    assert.equal(unknown!.outcome.error!.name, "ModuleNotFoundError");
    assert.equal(
      unknown!.outcome.error!.message,
      "No skill named 'skills.stat'. Saved Python skills: adder, stats.",
    );
    assert.match(none!.outcome.error!.message, /no Python skills are saved/);
  });

  test("nothing of one run reaches the next in the same interpreter", () => {
    const [first, second] = runPython([
      {
        code: [
          "import builtins, sys",
          "import skills.stats",
          "leftover = 1",
          "builtins.planted = 2",
          "builtins.print = None",
          "sys.path.insert(0, '/planted')",
          "sys.stdout = None",
          "import logging, warnings",
          "logging.basicConfig(level=logging.INFO)",
          "warnings.simplefilter('ignore')",
          "'first'",
        ].join("\n"),
        skills,
      },
      {
        code: [
          "import sys",
          "found = [name for name in ('leftover', 'planted') if name in globals() or hasattr(__builtins__, name)]",
          "print('printing works')",
          "import logging, warnings",
          "logging.info('not at the default level')",
          "warnings.warn('shown again')",
          "try:",
          "    import skills.stats",
          "except ModuleNotFoundError as error:",
          "    missing = str(error)",
          "[found, '/planted' in sys.path, missing]",
        ].join("\n"),
      },
    ]);
    assert.deepEqual(first!.outcome, { result: "first" });
    assert.deepEqual(second!.outcome.result, [
      [],
      false,
      "No skill named 'skills.stats': no Python skills are saved (save_skill with language \"python\").",
    ]);
    assert.deepEqual(second!.logs, [
      { level: "log", message: "printing works" },
      { level: "error", message: "agent.py:6: UserWarning: shown again\n  warnings.warn('shown again')" },
    ]);
  });
});

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
    };
    const logs: unknown[] = [];
    const host = {
      async call(server: string, tool: string, argsJson: string) {
        const args = JSON.parse(argsJson) as { a: number; b: number };
        if (tool === "fail")
          return JSON.stringify({ ok: false, error: { name: "ToolError", message: "no" } });
        return JSON.stringify({ ok: true, json: JSON.stringify({ sum: args.a + args.b, server, tool }) });
      },
      async search(query: string, limit: unknown, minScore: unknown) {
        return JSON.stringify({ ok: true, json: JSON.stringify([query, limit, minScore ?? "absent"]) });
      },
      async op(name: string, argsJson: string) {
        return JSON.stringify({ ok: true, json: JSON.stringify({ text: `${name} ${argsJson}` }) });
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
