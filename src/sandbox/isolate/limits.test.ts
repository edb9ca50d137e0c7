import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { FakeBridge } from "../fake-bridge.ts";
import { describeLimitsContract } from "../shared/limits-contract.ts";
import type { ExecutionResult, RunOptions } from "../types.ts";
import { IsolateRuntime } from "./runtime.ts";

const runtime = new IsolateRuntime({ poolSize: 1, prewarmMemoryMb: 32 });
after(() => runtime.close());

describeLimitsContract("IsolateRuntime", runtime, { timeoutMs: 300, abortAfterMs: 50 });

/** Resolves when the signal aborts; records that it did. */
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

function run(code: string, options: Partial<RunOptions> = {}): Promise<ExecutionResult> {
  return runtime.run({
    code,
    tools: bridge.namespace(),
    bridge,
    timeoutMs: 300,
    memoryMb: 32,
    maxLogBytes: 1_000,
    ...options,
  });
}

describe("IsolateRuntime: limits", () => {
  it("stops a loop that starts after an await", async () => {
    const result = await run("await Promise.resolve();\nwhile (true) {}");
    assert.equal(result.error?.kind, "timeout");
  });

  it("reports a memory bomb as kind memory and keeps working", async () => {
    const result = await run("const hoard = [];\nwhile (true) hoard.push(new Array(100_000).fill(1.5));", {
      timeoutMs: 20_000,
    });
    assert.equal(result.error?.kind, "memory");
    const next = await run("return [1, 2, 3].length");
    assert.equal(next.result, 3);
  });

  it("ends runs in progress on close and refuses new ones", async () => {
    const own = new IsolateRuntime({ poolSize: 0 });
    const running = own.run({
      code: "while (true) {}",
      tools: {},
      bridge,
      timeoutMs: 10_000,
      memoryMb: 32,
      maxLogBytes: 100,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await own.close();
    const ended = await running;
    assert.match(ended.error?.message ?? "", /closed/);
    const refused = await own.run({
      code: "1",
      tools: {},
      bridge,
      timeoutMs: 1_000,
      memoryMb: 32,
      maxLogBytes: 100,
    });
    assert.match(refused.error?.message ?? "", /closed/);
  });
});
