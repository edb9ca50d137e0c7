import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectServe, execute, untilServersSettled } from "./helpers/mcp-client.ts";
import { EVERYTHING_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

/** execute_code in Python through a real `toolscript serve` and the stock SDK client. */
const python = (client: Client, code: string, extra: Record<string, unknown> = {}) =>
  execute(client, code, { language: "python", ...extra });

describe('toolscript serve: execute_code with language "python"', () => {
  const dir = tempDir("python-serve");
  let client: Client;

  before(async () => {
    client = await connectServe(
      dir.path,
      {
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] },
          scripted: { command: process.execPath, args: [SCRIPTED_JS] },
        },
        // The default tier stays isolate: Python runs in the process tier anyway.
        toolscript: {
          sandbox: {
            runtime: "isolate",
            timeoutMs: 5_000,
            memoryMb: 64,
            maxToolCalls: 5,
            python: { pool: 1 },
          },
          storage: { dir: `${dir.path}/data` },
        },
      },
      "python-serve",
    );
    await untilServersSettled(client);
    // The first Python program makes the memory snapshot (seconds): given room here, not in each test.
    const first = await client.callTool(
      { name: "execute_code", arguments: { code: "1", language: "python" } },
      undefined,
      { timeout: 180_000 },
    );
    assert.notEqual(first.isError, true, JSON.stringify(first.content));
  });

  after(async () => {
    await client.close();
    dir.remove();
  });

  test("calls a tool by its sandbox name and by its original name", async () => {
    const answer = await python(
      client,
      "a = await tools.everything.get_sum(a=1, b=2)\nb = await tools.everything['get-sum']({'a': 20, 'b': 22})\n[a, b]",
    );
    assert.equal(answer.isError, false, answer.text);
    assert.match(JSON.stringify(answer.structured.result), /3[^0-9].*42/);
    assert.equal(answer.structured.toolCalls, 2);
  });

  test("context is a dict and its keys are variables; print goes to the logs", async () => {
    const answer = await python(client, "print('rows', len(rows))\nresult = context['rows'][1] * factor", {
      context: { rows: [1, 2, 3], factor: 21 },
    });
    assert.equal(answer.isError, false, answer.text);
    assert.equal(answer.structured.result, 42);
    assert.deepEqual(answer.structured.logs, [{ level: "log", message: "rows 3" }]);
  });

  test("a failing tool raises ToolError, catchable; uncaught it is kind tool", async () => {
    const caught = await python(
      client,
      "try:\n    await tools.scripted.fail()\nexcept ToolError as e:\n    result = [type(e).__name__, str(e)]",
    );
    assert.deepEqual(caught.structured.result, ["ToolError", "scripted/fail failed: this tool always fails"]);
    const uncaught = await python(client, "await tools.scripted.fail()");
    assert.equal(uncaught.isError, true);
    assert.equal(uncaught.structured.error?.kind, "tool");
  });

  test("a syntax error is kind syntax with its line; a loop ends at the timeout", async () => {
    const syntax = await python(client, "x = 1\nif x\n    pass");
    assert.equal(syntax.structured.error?.kind, "syntax");
    assert.equal(syntax.structured.error?.line, 2);
    const loop = await python(client, "while True:\n    pass", { timeoutMs: 1_000 });
    assert.equal(loop.structured.error?.kind, "timeout");
  });

  test("nothing passes from one execution to the next", async () => {
    await python(client, "import builtins\nbuiltins.LEFT = 'over'\nSTATE = 1");
    const next = await python(client, "import builtins\n[hasattr(builtins, 'LEFT'), 'STATE' in globals()]");
    assert.deepEqual(next.structured.result, [false, false]);
  });

  test("the tool-call cap holds: the sixth call raises LimitError", async () => {
    const answer = await python(
      client,
      "n = 0\ntry:\n    for i in range(10):\n        await tools.everything.get_sum(a=i, b=1)\n        n += 1\nexcept LimitError as e:\n    result = [n, type(e).__name__]",
    );
    assert.deepEqual(answer.structured.result, [5, "LimitError"], answer.text);
  });

  test("a Python skill: refused with the parser's line when it does not parse, imported once saved", async () => {
    const save = (code: string) =>
      client.callTool({
        name: "save_skill",
        arguments: { name: "py-stats", code, description: "Mean of numbers", language: "python" },
      });
    const broken = await save('def mean_of(values):\n    """Mean."""\n    return sum(values) /\n');
    assert.equal(broken.isError, true);
    assert.match(JSON.stringify(broken.content), /line 3/);
    const saved = await save(
      'def mean_of(values: list[float]) -> float:\n    """Mean."""\n    return sum(values) / len(values)\n',
    );
    assert.notEqual(saved.isError, true, JSON.stringify(saved.content));
    const answer = await python(client, "from skills.py_stats import mean_of\nmean_of([1, 2, 3, 6])");
    assert.equal(answer.structured.result, 3, answer.text);
  });

  test("the analysis helpers: from toolscript.analysis import aggregate", async () => {
    const answer = await python(
      client,
      "from toolscript.analysis import aggregate\nrows = [{'k': 'a', 'v': 1}, {'k': 'b', 'v': 5}, {'k': 'a', 'v': 3}]\naggregate(rows, 'k', {'total': {'op': 'sum', 'field': 'v'}})",
    );
    assert.equal(answer.isError, false, answer.text);
    assert.deepEqual(answer.structured.result, [
      { k: "a", total: 4 },
      { k: "b", total: 5 },
    ]);
  });

  test("TypeScript still runs in the configured tier beside it", async () => {
    const answer = await execute(client, "const n: number = 40; return n + 2;");
    assert.equal(answer.structured.result, 42, answer.text);
  });
});
