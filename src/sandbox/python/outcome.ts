import { AgentPositions } from "../isolate/agent-stack.ts";
import type { EndReason } from "../isolate/run-outcome.ts";
import { fromExit as processExit } from "../process/outcome.ts";
import type { ProcessExit } from "../process/sandbox-process.ts";
import type { Outcome } from "../shared/run-result.ts";
import type { ExecutionError, ExecutionErrorKind } from "../types.ts";

const KINDS: ReadonlySet<string> = new Set<ExecutionErrorKind>([
  "syntax",
  "type",
  "timeout",
  "memory",
  "tool",
  "policy",
  "runtime",
]);
/** What a wasm heap that cannot grow, or V8 out of room, says when it reaches the driver as a JavaScript error. */
const OUT_OF_MEMORY =
  /out of memory|Cannot allocate memory|WebAssembly\.Memory|Maximum call stack|allocation failed/i;
const NO_POSITIONS = new AgentPositions(undefined);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sandboxFailure(message: string): Outcome {
  return { error: { kind: "runtime", name: "Error", message: `Sandbox failure: ${message}` } };
}

/** The ExecutionError of a report from the sandbox: only known fields of the right type pass. */
function checkedError(value: Record<string, unknown>): ExecutionError {
  const name = typeof value.name === "string" ? value.name : "Error";
  const message = typeof value.message === "string" ? value.message : "";
  let kind: ExecutionErrorKind =
    typeof value.kind === "string" && KINDS.has(value.kind) ? (value.kind as ExecutionErrorKind) : "runtime";
  if (kind === "runtime" && OUT_OF_MEMORY.test(`${name}: ${message}`)) kind = "memory";
  if (kind === "memory")
    return { kind, name: "MemoryError", message: message || "Execution exceeded the memory limit" };
  const error: ExecutionError = { kind, name, message };
  if (typeof value.stack === "string") error.stack = value.stack;
  if (typeof value.line === "number" && Number.isSafeInteger(value.line)) error.line = value.line;
  if (typeof value.column === "number" && Number.isSafeInteger(value.column)) error.column = value.column;
  if (typeof value.code === "string") error.code = value.code;
  if (value.data !== undefined) error.data = value.data;
  return error;
}

/** The result or error of the driver's answer (JSON text of `{ result }` or `{ error }`); it comes from the sandbox, so it is checked. */
export function fromDriverOutcome(json: unknown): Outcome {
  if (typeof json !== "string") return sandboxFailure("the Python driver answered with no JSON text");
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return sandboxFailure("the Python driver answered with malformed JSON");
  }
  if (!isRecord(value)) return sandboxFailure("the Python driver answered with no object");
  if (isRecord(value.error)) return { error: checkedError(value.error) };
  return value.result === undefined ? {} : { result: value.result };
}

/** Why a Python sandbox process ended without an answer: stopped by the host, out of memory, or broken. */
export function fromPythonExit(
  exit: ProcessExit,
  ended: EndReason | undefined,
  timeoutMs: number,
): ExecutionError {
  return processExit(exit, ended, timeoutMs, NO_POSITIONS);
}
