import type { ToolscriptSettings } from "../config/settings.ts";
import { IsolateRuntime } from "../sandbox/isolate/runtime.ts";
import type { SandboxRuntime } from "../sandbox/types.ts";
import { GatewayError } from "./errors.ts";

/** The configured sandbox tier. Never falls back to a weaker tier: it refuses instead. */
export function createRuntime(sandbox: ToolscriptSettings["sandbox"]): SandboxRuntime {
  if (sandbox.runtime === "isolate") {
    return new IsolateRuntime({ poolSize: sandbox.poolSize, prewarmMemoryMb: sandbox.memoryMb });
  }
  throw new GatewayError(
    "gateway.runtime_unavailable",
    `sandbox.runtime "${sandbox.runtime}" is not available in this build; use "isolate"`,
  );
}
