import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeBridge, hostError } from "../fake-bridge.ts";
import type { ExecutionResult } from "../types.ts";
import { pythonDriverFiles } from "./driver-files.ts";
import { type PythonRunOptions, PythonRuntime } from "./runtime.ts";

/**
 * Test support (imported by `*.test.ts` only): a Python runtime over the
 * real driver, its snapshot cached in one folder every test file shares
 * (keyed and checksummed, so a stale one is never used), and a bridge.
 */
export const TEST_SNAPSHOT_CACHE = join(tmpdir(), "toolscript-test-pyodide-cache");

export function createTestPythonRuntime(poolSize = 1): Promise<PythonRuntime> {
  return PythonRuntime.create({
    driverFiles: pythonDriverFiles(),
    poolSize,
    prewarmMemoryMb: 64,
    cacheDir: TEST_SNAPSHOT_CACHE,
  });
}

/** Resolves when the signal aborts. */
export function untilAborted(signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve("aborted");
    signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

export function testBridge(): FakeBridge {
  return new FakeBridge({
    "my-server/get-sum": (args) => {
      const { a, b } = args as { a: number; b: number };
      return { sum: a + b };
    },
    "my-server/echo": (args) => args,
    "my-server/fail": () => {
      throw hostError("ToolError", "the tool failed", "tool.failed", { why: "because" });
    },
    "my-server/refused": () => {
      throw hostError("PolicyError", "refused by policy", "policy.denied");
    },
    "s/hang": (_args, signal) => untilAborted(signal),
  });
}

/** Runs Python with small limits unless told otherwise. */
export function runPython(
  runtime: PythonRuntime,
  bridge: FakeBridge,
  code: string,
  options: Partial<PythonRunOptions> = {},
): Promise<ExecutionResult> {
  return runtime.run({
    code,
    tools: bridge.namespace(),
    bridge,
    timeoutMs: 5_000,
    memoryMb: 64,
    maxLogBytes: 10_000,
    ...options,
  });
}
