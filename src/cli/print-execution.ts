import type { ExecuteResponse } from "../gateway/types.ts";

/** Logs and result on stdout, the error and the cost on stderr. */
export function printExecution(response: ExecuteResponse): void {
  for (const entry of response.logs) {
    const line =
      entry.level === "log" || entry.level === "info" ? entry.message : `[${entry.level}] ${entry.message}`;
    process.stdout.write(`${line}\n`);
  }
  if (response.error) {
    const { error } = response;
    const where =
      error.line === undefined ? "" : ` at line ${error.line}${error.column ? `:${error.column}` : ""}`;
    process.stderr.write(`${error.name} (${error.kind})${where}: ${error.message}\n`);
    if (error.stack) process.stderr.write(`${error.stack}\n`);
  } else if (response.result !== undefined) {
    const value =
      typeof response.result === "string" ? response.result : JSON.stringify(response.result, null, 2);
    process.stdout.write(`${value}\n`);
  }
  process.stderr.write(
    `-- ${response.toolCalls} tool calls, ${formatBytes(response.toolResultBytes)} of tool results stayed in the sandbox, ${Math.round(response.durationMs)} ms\n`,
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}
