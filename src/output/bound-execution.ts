import type { ExecutionResult, LogEntry } from "../sandbox/types.ts";
import { boundValue, cutMiddle, jsonBytesUpTo } from "./bound-value.ts";
import { formatCount } from "./format-number.ts";

/**
 * Hard caps on each part of an execution before anything reads it whole
 * (secret redaction, PII tokenizing, token counting, JSON copies). They are far
 * above any token budget (20,000 tokens is ~80,000 characters) and far below the
 * 10 MiB an MCP client accepts for a whole message.
 */
export interface ExecutionBounds {
  /** Characters kept of the error's message, and of its stack. */
  errorChars: number;
  /** Characters kept of all log messages together. */
  logChars: number;
  /** JSON bytes kept of the returned value, and of the error's `data`. */
  valueBytes: number;
}

export const DEFAULT_EXECUTION_BOUNDS: ExecutionBounds = {
  errorChars: 256 * 1024,
  logChars: 256 * 1024,
  valueBytes: 8 * 1024 * 1024,
};
/** Error data (a tool error's content, validation issues) is context, not the answer: kept small. */
const ERROR_DATA_BYTES = 64 * 1024;
/** Share of the log characters given to the first lines; the last lines get the rest. */
const LOG_HEAD_SHARE = 0.6;

export interface BoundedExecution<T> {
  result: T;
  /** True when the returned value itself was cut (it is then no longer the complete value). */
  resultCut: boolean;
}

/**
 * Cuts every part of an execution to `bounds` by slicing, so a program that
 * throws or logs 100 MB costs the gateway no more than one that throws 256 KB.
 * Parts within bounds are returned as they are (the same objects).
 */
export function boundExecution<T extends ExecutionResult>(
  result: T,
  bounds: ExecutionBounds = DEFAULT_EXECUTION_BOUNDS,
): BoundedExecution<T> {
  let out = result;
  let resultCut = false;
  const { error } = result;
  if (error) {
    const message = cutMiddle(error.message, bounds.errorChars);
    const stack = error.stack === undefined ? undefined : cutMiddle(error.stack, bounds.errorChars);
    const dataOver = error.data !== undefined && jsonBytesUpTo(error.data, ERROR_DATA_BYTES).over;
    if (message !== error.message || stack !== error.stack || dataOver) {
      out = {
        ...out,
        error: {
          ...error,
          message,
          ...(stack !== undefined && { stack }),
          ...(dataOver && { data: boundValue(error.data, ERROR_DATA_BYTES).value }),
        },
      };
    }
  }
  const logs = boundLogs(result.logs, bounds.logChars);
  if (logs !== result.logs) out = { ...out, logs };
  if (
    result.result !== undefined &&
    Number.isFinite(bounds.valueBytes) &&
    jsonBytesUpTo(result.result, bounds.valueBytes).over
  ) {
    resultCut = true;
    out = { ...out, result: boundValue(result.result, bounds.valueBytes).value };
  }
  return { result: out, resultCut };
}

/** The first and last log lines within `maxChars` in all, each line cut to fit, with a marker for the lines left out. */
function boundLogs(logs: readonly LogEntry[], maxChars: number): LogEntry[] {
  let total = 0;
  for (const entry of logs) {
    total += entry.message.length;
    if (total > maxChars) break;
  }
  if (total <= maxChars) return logs as LogEntry[];
  const head = takeLines(logs, Math.floor(maxChars * LOG_HEAD_SHARE), 1);
  const tail = takeLines(logs.slice(head.count), maxChars - head.chars, -1);
  const omitted = logs.length - head.count - tail.count;
  const marker: LogEntry = {
    level: "info",
    message: `[… ${formatCount(omitted)} of ${formatCount(logs.length)} log lines cut here: the logs were over ${formatCount(maxChars)} characters …]`,
  };
  return [...head.lines, ...(omitted > 0 ? [marker] : []), ...tail.lines];
}

/** Lines from the start (`direction` 1) or the end (-1) of `logs` within `maxChars`; the last one taken may be cut. */
function takeLines(
  logs: readonly LogEntry[],
  maxChars: number,
  direction: 1 | -1,
): { lines: LogEntry[]; count: number; chars: number } {
  const lines: LogEntry[] = [];
  let chars = 0;
  for (let i = 0; i < logs.length; i++) {
    const entry = logs[direction === 1 ? i : logs.length - 1 - i] as LogEntry;
    const room = maxChars - chars;
    if (room <= 0) break;
    const message = entry.message.length > room ? cutMiddle(entry.message, room) : entry.message;
    lines.push(message === entry.message ? entry : { level: entry.level, message });
    chars += Math.min(entry.message.length, room);
  }
  if (direction === -1) lines.reverse();
  return { lines, count: lines.length, chars };
}
