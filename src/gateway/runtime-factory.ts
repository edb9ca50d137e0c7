import { join } from "node:path";
import type { ToolscriptSettings } from "../config/settings.ts";
import type { PythonRuntime } from "../sandbox/python/runtime.ts";
import type { SandboxRuntime } from "../sandbox/types.ts";
import { GatewayError } from "./errors.ts";

// Each tier's code loads when that tier starts: an isolate gateway never loads Deno's or Python's.

/**
 * The configured sandbox tier. Never falls back to a weaker tier: when the
 * configured one cannot start (no Deno, no bubblewrap) it refuses, naming why.
 */
export async function createRuntime(sandbox: ToolscriptSettings["sandbox"]): Promise<SandboxRuntime> {
  if (sandbox.runtime === "isolate") {
    const { IsolateRuntime } = await import("../sandbox/isolate/runtime.ts");
    return new IsolateRuntime({ poolSize: sandbox.poolSize, prewarmMemoryMb: sandbox.memoryMb });
  }
  try {
    const { ProcessRuntime } = await import("../sandbox/process/runtime.ts");
    return await ProcessRuntime.create({
      poolSize: sandbox.poolSize,
      prewarmMemoryMb: sandbox.memoryMb,
      bubblewrap: sandbox.bubblewrap,
    });
  } catch (error) {
    throw new GatewayError(
      "gateway.runtime_unavailable",
      `sandbox.runtime "process" cannot start: ${error instanceof Error ? error.message : String(error)}`,
      {},
      { cause: error },
    );
  }
}

/**
 * The Python runtime: always the process tier (Pyodide in Deno in bubblewrap),
 * whatever `sandbox.runtime` is; its memory snapshot cached under
 * `<storage.dir>/cache`. Refuses, naming why, when the process tier cannot run here.
 */
export async function createPythonRuntime(
  sandbox: ToolscriptSettings["sandbox"],
  storageDir: string,
): Promise<PythonRuntime> {
  try {
    const [{ PythonRuntime }, { pythonDriverFiles }, { pythonLibFiles }] = await Promise.all([
      import("../sandbox/python/runtime.ts"),
      import("../sandbox/python/driver-files.ts"),
      import("../sandbox/python/lib-files.ts"),
    ]);
    return await PythonRuntime.create({
      // The driver and the library programs import (toolscript.analysis), on sys.path together.
      driverFiles: [...pythonDriverFiles(), ...pythonLibFiles()],
      poolSize: sandbox.python.pool,
      prewarmMemoryMb: sandbox.memoryMb,
      bubblewrap: sandbox.bubblewrap,
      cacheDir: join(storageDir, "cache"),
    });
  } catch (error) {
    throw new GatewayError(
      "gateway.runtime_unavailable",
      `Python cannot run: ${error instanceof Error ? error.message : String(error)}`,
      {},
      { cause: error },
    );
  }
}
