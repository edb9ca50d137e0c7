import { LogCollector } from "../isolate/log-collector.ts";
import type { ExecutionError, ExecutionResult, RunOptions } from "../types.ts";

/** How one run ended, before logs and timing are added. */
export type Outcome = { result?: unknown; error?: ExecutionError; toolResultBytes?: number };

export function failure(kind: ExecutionError["kind"], name: string, message: string): Outcome {
  return { error: { kind, name, message } };
}

/**
 * What every tier checks before it starts a run: the runtime is open, the
 * caller has not given up, and the tool namespace and `context` are JSON.
 */
export function runInputs(
  options: RunOptions,
  closed: boolean,
):
  | { toolsJson: string; contextJson: string | undefined; limitsJson: string }
  | (Outcome & { error: ExecutionError }) {
  if (closed) return { error: { kind: "runtime", name: "Error", message: "The sandbox runtime is closed" } };
  if (options.signal?.aborted)
    return { error: { kind: "runtime", name: "AbortError", message: "Execution was cancelled" } };
  try {
    return {
      limitsJson: JSON.stringify({
        maxLogBytes: options.maxLogBytes,
        maxOutputBytes: options.maxOutputBytes,
      }),
      toolsJson: JSON.stringify(options.tools),
      contextJson: options.context === undefined ? undefined : JSON.stringify(options.context),
    };
  } catch (error) {
    return {
      error: {
        kind: "runtime",
        name: "TypeError",
        message: `context must be JSON-serializable: ${(error as Error).message}`,
      },
    };
  }
}

/**
 * The sandbox boundary every tier shares: runs `execute` with a log collector
 * and turns whatever happens into `{ result, error, logs }` — it never throws.
 */
export async function runToResult(
  options: RunOptions,
  execute: (logs: LogCollector) => Promise<Outcome>,
): Promise<ExecutionResult> {
  const startedAt = performance.now();
  const logs = new LogCollector(options.maxLogBytes);
  let outcome: Outcome;
  try {
    outcome = await execute(logs);
  } catch (error) {
    outcome = failure(
      "runtime",
      "Error",
      `Sandbox failure: ${error instanceof Error ? error.message : error}`,
    );
  }
  const result: ExecutionResult = { logs: logs.entries, durationMs: performance.now() - startedAt };
  if (outcome.result !== undefined) result.result = outcome.result;
  if (outcome.error !== undefined) result.error = outcome.error;
  if (outcome.toolResultBytes) result.toolResultBytes = outcome.toolResultBytes;
  if (logs.truncated) result.logsTruncated = true;
  return result;
}
