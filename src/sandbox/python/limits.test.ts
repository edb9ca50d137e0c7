import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createTestPythonRuntime, runPython, testBridge } from "./test-runtime.ts";

const runtime = await createTestPythonRuntime(1);
after(() => runtime.close());
const bridge = testBridge();
const run = (code: string, options = {}) =>
  runPython(runtime, bridge, code, { timeoutMs: 1_500, ...options });

describe("PythonRuntime: limits (the limits contract's cases, in Python)", () => {
  it("stops a synchronous infinite loop", async () => {
    const result = await run("while True:\n    pass");
    assert.equal(result.error?.kind, "timeout");
    assert.match(result.error?.message ?? "", /1500 ms/);
  });

  it("stops a loop that starts after a tool call, keeping earlier logs", async () => {
    const result = await run(
      "print('before')\nawait tools.my_server.echo(x=1)\nprint('after call')\nwhile True:\n    pass",
    );
    assert.equal(result.error?.kind, "timeout");
    assert.deepEqual(
      result.logs.map((entry) => entry.message),
      ["before", "after call"],
    );
  });

  it("stops time.sleep and asyncio.sleep past the timeout", async () => {
    assert.equal((await run("import time\ntime.sleep(60)")).error?.kind, "timeout");
    assert.equal((await run("import asyncio\nawait asyncio.sleep(60)")).error?.kind, "timeout");
  });

  it("aborts the signal of a tool call in flight when the run times out", async () => {
    const before = bridge.calls.length;
    const result = await run("await tools.s.hang()");
    assert.equal(result.error?.kind, "timeout");
    assert.equal(bridge.calls[before]?.tool, "hang");
    assert.equal(bridge.calls[before]?.signal.aborted, true);
  });

  it("stops when the caller's signal aborts, also before the code starts", async () => {
    const controller = new AbortController();
    const pending = run("while True:\n    pass", { signal: controller.signal, timeoutMs: 60_000 });
    setTimeout(() => controller.abort(), 200);
    assert.equal((await pending).error?.name, "AbortError");
    const already = await run("1", { signal: AbortSignal.abort() });
    assert.equal(already.error?.name, "AbortError");
  });

  it("reports allocations past the memory limit as kind memory, then runs the next program", async () => {
    for (const code of [
      "x = bytearray(10**9)",
      "s = 'x' * (600 * 10**6)",
      "a = []\nwhile True:\n    a.append('x' * 10**6)",
      "x = [0] * (10**9)",
      // The JavaScript heap, through run_js: V8 ends the process at its heap limit.
      "from pyodide.code import run_js\nrun_js('let a = []; while (true) a.push(new Array(1e6).fill(1.5))')",
    ]) {
      const result = await run(code, { memoryMb: 32, timeoutMs: 60_000 });
      assert.equal(result.error?.kind, "memory", `${code}: ${JSON.stringify(result.error)}`);
    }
    assert.equal((await run("len(bytearray(20 * 10**6))", { memoryMb: 32 })).result, 20_000_000);
  });

  it("starts and runs at the smallest memory limit the config allows (8 MiB)", async () => {
    const result = await run("len(bytearray(5 * 10**6))", { memoryMb: 8 });
    assert.equal(result.result, 5_000_000, JSON.stringify(result.error));
  });

  it("caps the logs and marks the cut", async () => {
    const result = await run("for i in range(10000):\n    print('line', i)\n'done'", { maxLogBytes: 100 });
    assert.equal(result.result, "done");
    assert.equal(result.logsTruncated, true);
    const kept = result.logs.slice(0, -1);
    assert.equal(kept[0]?.message, "line 0");
    assert.match(result.logs.at(-1)?.message ?? "", /truncated/);
    const bytes = kept.reduce((sum, entry) => sum + Buffer.byteLength(entry.message) + 1, 0);
    assert.ok(bytes <= 100, `${bytes} bytes of logs`);
  });

  it("cuts a 50 MB print to the log cap inside the sandbox", async () => {
    const result = await run("print('x' * (50 * 10**6))\n'done'", { maxLogBytes: 1_000, memoryMb: 128 });
    assert.equal(result.result, "done", JSON.stringify(result.error));
    assert.equal(result.logsTruncated, true);
    const bytes = result.logs.reduce((sum, entry) => sum + entry.message.length, 0);
    assert.ok(bytes < 2_000, `${bytes} characters of logs`);
  });

  it("measures a result over maxOutputBytes inside the sandbox and returns a LimitError", async () => {
    const result = await run("'x' * 100_000", { maxOutputBytes: 10_000 });
    assert.equal(result.error?.name, "LimitError");
    assert.equal(result.result, undefined);
  });

  it("refuses tool results past maxResultBytes with a catchable LimitError", async () => {
    const result = await run(
      "try:\n    await tools.my_server.echo(text='y' * 5000)\nexcept LimitError as e:\n    result = e.code",
      { maxResultBytes: 1_000 },
    );
    assert.equal(result.result, "limit.result_bytes");
  });
});
