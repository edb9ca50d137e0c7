import type { ExecutionError, ExecutionErrorKind } from "../types.ts";
import { type AgentPositions, mapAgentStack, mapCompileMessage } from "./agent-stack.ts";
import { MAX_REPORT_CHARS } from "./prelude.ts";

/** Why a run stopped before the agent's code finished. */
/** The error code of a run whose isolate V8 gave up on (its memory stays taken until the process ends). */
export const ISOLATE_LOST_CODE = "sandbox.isolate_lost";

export type EndReason = "timeout" | "aborted" | "closed" | "memory";

/** What the prelude's `start` resolves to (copied out of the isolate, so checked). */
export type StartReport =
  | { ok: true; json?: string; oversizedChars?: number }
  | {
      ok: false;
      error: {
        kind: string;
        name: string;
        message: string;
        stack?: string;
        code?: string;
        dataJson?: string;
      };
    };

const REPORTED_KINDS: ReadonlySet<string> = new Set<ExecutionErrorKind>(["tool", "policy", "runtime"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A report's string as the prelude cuts it; cut again here should a sandbox send more. */
function reportString(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  // The prelude's own cut ends in a note of its length: room is left for it.
  if (value.length <= MAX_REPORT_CHARS + 64) return value;
  return `${value.slice(0, MAX_REPORT_CHARS)}… (${value.length - MAX_REPORT_CHARS} more characters)`;
}

/** The error of a returned value over `sandbox.maxOutputBytes`, measured (in characters) inside the sandbox. */
export function outputLimitError(characters: number, maxBytes: number): ExecutionError {
  return {
    kind: "runtime",
    name: "LimitError",
    code: "limit.output_bytes",
    message: `the returned value is ${characters} characters of JSON (at least as many bytes), over the limit of ${maxBytes} bytes (sandbox.maxOutputBytes): return a smaller value, e.g. aggregate or slice it`,
    data: { limit: maxBytes, characters },
  };
}

function parseJson(json: string | undefined): unknown {
  if (json === undefined) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

function withPosition(
  error: ExecutionError,
  position: { line: number; column: number } | undefined,
): ExecutionError {
  if (position === undefined) return error;
  return { ...error, line: position.line, column: position.column };
}

/** Turns the report of a finished run into its result or error. */
export function fromReport(
  report: unknown,
  positions: AgentPositions,
  maxOutputBytes?: number,
): { result?: unknown; error?: ExecutionError } {
  if (!isRecord(report) || typeof report.ok !== "boolean") {
    return { error: { kind: "runtime", name: "Error", message: "The sandbox returned a malformed report" } };
  }
  if (report.ok) {
    if (typeof report.oversizedChars === "number" && maxOutputBytes !== undefined) {
      return { error: outputLimitError(report.oversizedChars, maxOutputBytes) };
    }
    const json = optionalString(report.json);
    if (json !== undefined && maxOutputBytes !== undefined && json.length > maxOutputBytes) {
      return { error: outputLimitError(json.length, maxOutputBytes) };
    }
    return json === undefined ? {} : { result: JSON.parse(json) };
  }
  const raw = isRecord(report.error) ? report.error : {};
  const kind = typeof raw.kind === "string" && REPORTED_KINDS.has(raw.kind) ? raw.kind : "runtime";
  const error: ExecutionError = {
    kind: kind as ExecutionErrorKind,
    name: reportString(raw.name) ?? "Error",
    message: reportString(raw.message) ?? "",
  };
  const code = reportString(raw.code);
  const data = parseJson(optionalString(raw.dataJson));
  if (code !== undefined) error.code = code;
  if (data !== undefined) error.data = data;
  const stack = reportString(raw.stack);
  if (stack === undefined) return { error };
  const mapped = mapAgentStack(stack, positions);
  return { error: withPosition({ ...error, stack: mapped.stack }, mapped.position) };
}

const END_MESSAGES: Record<
  EndReason,
  { kind: ExecutionErrorKind; name: string; message: string; code?: string }
> = {
  timeout: { kind: "timeout", name: "TimeoutError", message: "Execution timed out" },
  aborted: { kind: "runtime", name: "AbortError", message: "Execution was cancelled" },
  closed: { kind: "runtime", name: "Error", message: "The sandbox runtime was closed during execution" },
  memory: {
    kind: "memory",
    name: "MemoryError",
    message: "Execution exceeded the memory limit (V8 could not recover the isolate, so it was abandoned)",
    code: ISOLATE_LOST_CODE,
  },
};

/** Turns a failure of the isolate machinery (compile error, disposal, limits) into an error. */
export function fromFailure(
  failure: unknown,
  ended: EndReason | undefined,
  timeoutMs: number,
  positions: AgentPositions,
): ExecutionError {
  if (ended !== undefined) {
    const base = END_MESSAGES[ended];
    return ended === "timeout" ? { ...base, message: `${base.message} after ${timeoutMs} ms` } : { ...base };
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  if (/memory limit/i.test(message)) {
    return { kind: "memory", name: "MemoryError", message: "Execution exceeded the memory limit" };
  }
  if (failure instanceof SyntaxError) {
    const mapped = mapCompileMessage(message, positions);
    return withPosition({ kind: "syntax", name: "SyntaxError", message: mapped.message }, mapped.position);
  }
  return { kind: "runtime", name: "Error", message: `Sandbox failure: ${message}` };
}
