import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FakeBridge } from "../fake-bridge.ts";
import type { ExecutionResult, RunOptions, SandboxRuntime } from "../types.ts";

export interface LimitsContractOptions {
  /** Wall-clock limit of each run: short, but long enough for the tier to start. */
  timeoutMs: number;
  /** When the caller's signal aborts in the cancellation case. */
  abortAfterMs: number;
}

/** Resolves when the signal aborts. */
function untilAborted(signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve("aborted");
    signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

/**
 * The time and cancellation limits every sandbox tier must keep, run against
 * one tier: runaway loops (also after an await), in-flight tool calls
 * cancelled when a run ends, and the caller giving up.
 */
export function describeLimitsContract(
  label: string,
  runtime: SandboxRuntime,
  options: LimitsContractOptions,
): void {
  const bridge = new FakeBridge({
    "s/fast": () => "fast",
    "s/hang": (_args, signal) => untilAborted(signal),
  });
  const run = (code: string, extra: Partial<RunOptions> = {}): Promise<ExecutionResult> =>
    runtime.run({
      code,
      tools: bridge.namespace(),
      bridge,
      timeoutMs: options.timeoutMs,
      memoryMb: 32,
      maxLogBytes: 1_000,
      ...extra,
    });

  describe(`${label}: limits every tier keeps`, () => {
    it("stops a synchronous infinite loop", async () => {
      const result = await run("while (true) {}");
      assert.equal(result.error?.kind, "timeout");
      const low = options.timeoutMs - 10;
      assert.ok(result.durationMs >= low && result.durationMs < 3_000, `took ${result.durationMs} ms`);
    });

    it("stops a loop that starts after a tool call, keeping earlier logs", async () => {
      const result = await run(
        "console.log('before');\nawait tools.s.fast({});\nconsole.log('after call');\nwhile (true) {}",
      );
      assert.equal(result.error?.kind, "timeout");
      assert.deepEqual(
        result.logs.map((entry) => entry.message),
        ["before", "after call"],
      );
    });

    it("aborts the signal of a tool call in flight when the run times out", async () => {
      const before = bridge.calls.length;
      const result = await run("await tools.s.hang({});");
      assert.equal(result.error?.kind, "timeout");
      const call = bridge.calls[before];
      assert.equal(call?.tool, "hang");
      assert.equal(call?.signal.aborted, true);
    });

    it("aborts calls left in flight when the run finishes normally", async () => {
      const before = bridge.calls.length;
      const result = await run("tools.s.hang({});\nreturn 'done';");
      assert.equal(result.result, "done");
      assert.equal(bridge.calls[before]?.signal.aborted, true);
    });

    it("stops when the caller's signal aborts", async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), options.abortAfterMs);
      const result = await run("while (true) {}", { signal: controller.signal, timeoutMs: 10_000 });
      assert.equal(result.error?.name, "AbortError");
      assert.ok(result.durationMs < 5_000);
      const already = await run("return 1", { signal: AbortSignal.abort() });
      assert.equal(already.error?.name, "AbortError");
    });

    it("stops when the caller's signal aborts while the run is still being set up", async () => {
      const controller = new AbortController();
      // run() returns while it waits for a sandbox: the abort lands before the code starts.
      const pending = run("while (true) {}", { signal: controller.signal, timeoutMs: 10_000 });
      controller.abort();
      const result = await pending;
      assert.equal(result.error?.name, "AbortError");
      assert.ok(result.durationMs < 5_000, `${result.durationMs} ms`);
    });
  });
}
