import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import { FakeBridge } from "../fake-bridge.ts";
import { describeLimitsContract } from "../shared/limits-contract.ts";
import type { ExecutionResult, RunOptions } from "../types.ts";
import { ProcessRuntime } from "./runtime.ts";

const runtime = await ProcessRuntime.create({ poolSize: 1, prewarmMemoryMb: 32 });
after(() => runtime.close());

describeLimitsContract("ProcessRuntime", runtime, { timeoutMs: 500, abortAfterMs: 100 });

/** Resolves when the signal aborts. */
function untilAborted(signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve("aborted");
    signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

const bridge = new FakeBridge({
  "s/fast": () => "fast",
  "s/hang": (_args, signal) => untilAborted(signal),
});

function run(code: string, options: Partial<RunOptions> = {}, on = runtime): Promise<ExecutionResult> {
  return on.run({
    code,
    tools: bridge.namespace(),
    bridge,
    timeoutMs: 500,
    memoryMb: 32,
    maxLogBytes: 1_000,
    ...options,
  });
}

/** Every live descendant of this process, from /proc. */
function descendants(): Set<number> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z") continue;
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone while we looked.
    }
  }
  const found = new Set<number>();
  const stack = [process.pid];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop() ?? 0) ?? []) {
      found.add(child);
      stack.push(child);
    }
  }
  return found;
}

async function waitUntil(predicate: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return predicate();
}

describe("ProcessRuntime: limits", () => {
  it("stops a loop that starts after an await, and its whole process tree is gone", async () => {
    const own = await ProcessRuntime.create({ poolSize: 0 });
    try {
      const before = descendants();
      const running = run("await Promise.resolve();\nwhile (true) {}", { timeoutMs: 800 }, own);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const sandbox = [...descendants()].filter((pid) => !before.has(pid));
      // prlimit execs bwrap, which runs an init and Deno in the new PID namespace.
      assert.ok(sandbox.length >= 2, `sandbox processes: ${sandbox}`);
      const result = await running;
      assert.equal(result.error?.kind, "timeout");
      // Bounded, not timed: a loaded machine reaps slowly, and the snapshot may hold a sibling test's sandbox.
      const gone = await waitUntil(() => sandbox.every((pid) => !existsSync(`/proc/${pid}`)), 10_000);
      assert.ok(gone, `still running: ${sandbox.filter((pid) => existsSync(`/proc/${pid}`))}`);
    } finally {
      await own.close();
    }
  });

  it("reports a heap bomb as kind memory and keeps working", async () => {
    const result = await run("const hoard = [];\nwhile (true) hoard.push(new Array(100_000).fill(1.5));", {
      timeoutMs: 20_000,
    });
    assert.equal(result.error?.kind, "memory");
    const next = await run("return [1, 2, 3].length");
    assert.equal(next.result, 3);
  });

  it("caps memory outside the heap (ArrayBuffers) with the rlimit", async () => {
    const result = await run(
      "const hoard = [];\nwhile (true) { const b = new ArrayBuffer(16 << 20); new Uint8Array(b).fill(1); hoard.push(b); }",
      { timeoutMs: 20_000 },
    );
    assert.equal(result.error?.kind, "memory");
    const caught = await run(
      "let n = 0;\ntry { const hoard = []; while (true) { hoard.push(new ArrayBuffer(16 << 20)); n++; } } catch (e) { return [e.name, n]; }",
      { timeoutMs: 20_000 },
    );
    // At the cap V8 either throws a catchable RangeError or cannot grow its own heap to make one
    // (how much heap the run already holds decides): both stop within the cap; nothing else may happen.
    if (caught.error) {
      assert.equal(caught.error.kind, "memory", JSON.stringify(caught.error));
    } else {
      const [name, count] = caught.result as [string, number];
      assert.equal(name, "RangeError");
      assert.ok(count > 0 && count < 40, `allocated ${count} x 16 MiB`);
    }
    const next = await run("return 2 + 2");
    assert.equal(next.result, 4);
  });

  it("kills a sandbox that sends a message larger than the cap", async () => {
    const own = await ProcessRuntime.create({ poolSize: 0, maxMessageBytes: 100_000 });
    try {
      const result = await run("return 'x'.repeat(200_000);", { timeoutMs: 5_000 }, own);
      assert.equal(result.error?.kind, "runtime");
      assert.match(result.error?.message ?? "", /larger than 100000 bytes/);
      const next = await run("return 'x'.repeat(1_000).length;", {}, own);
      assert.equal(next.result, 1_000);
    } finally {
      await own.close();
    }
  });

  it("ends runs in progress on close and refuses new ones", async () => {
    const own = await ProcessRuntime.create({ poolSize: 0 });
    const running = run("while (true) {}", { timeoutMs: 10_000 }, own);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await own.close();
    const ended = await running;
    assert.match(ended.error?.message ?? "", /closed/);
    const refused = await run("1", {}, own);
    assert.match(refused.error?.message ?? "", /closed/);
  });
});
