import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { errorOf, runOne, runPython } from "./driver-harness.fixture.ts";

/** The Python driver's tools, results, context and errors (CPython with a fake host: driver-harness.fixture.ts). */

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
