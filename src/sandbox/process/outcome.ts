import { Script } from "node:vm";
import { AGENT_SCRIPT_NAME, type AgentPositions, wrapAgentCode } from "../isolate/agent-stack.ts";
import { type EndReason, fromFailure, fromReport } from "../isolate/run-outcome.ts";
import { failure, type Outcome } from "../shared/run-result.ts";
import type { ExecutionError } from "../types.ts";
import type { ProcessExit } from "./sandbox-process.ts";

export { failure, type Outcome };

/** V8's and Rust's words when the heap limit or the memory rlimit is reached. */
const OUT_OF_MEMORY =
  /out of memory|heap limit|allocation failed|memory allocation of \d+ bytes failed|Unable to grow instance memory|Cannot allocate memory|Failed to reserve/i;
/**
 * How a process ends when memory runs out and nothing could be written: V8's
 * fatal error traps, Rust's allocation failure aborts, the kernel's OOM killer
 * kills. Bubblewrap passes a signal on as exit code 128 + its number. The host's
 * own kills are told apart before this is consulted (`ended`, `violation`).
 */
const OUT_OF_MEMORY_SIGNALS: ReadonlySet<string> = new Set(["SIGTRAP", "SIGABRT", "SIGKILL"]);
const OUT_OF_MEMORY_CODES: ReadonlySet<number> = new Set([128 + 5, 128 + 6, 128 + 9]);

function outOfMemory(exit: ProcessExit): boolean {
  if (OUT_OF_MEMORY.test(exit.stderr)) return true;
  if (exit.signal !== null) return OUT_OF_MEMORY_SIGNALS.has(exit.signal);
  return exit.code !== null && OUT_OF_MEMORY_CODES.has(exit.code);
}
const FRAME_LINE = /^\s+at /;
/** Frames of Deno's own scripts or the runner, should agent code have replaced the stack formatter. */
const HOST_FRAME = /file:|ext:|node:|\/toolscript\/|toolscript-process-/;

const MEMORY_ERROR: ExecutionError = {
  kind: "memory",
  name: "MemoryError",
  message: "Execution exceeded the memory limit",
};

/** V8's own format for frames of eval'd code, used when agent code removed the runner's stack formatter. */
const EVAL_FRAME = new RegExp(`${AGENT_SCRIPT_NAME}, <anonymous>:`, "g");

function scrubStack(stack: unknown): unknown {
  if (typeof stack !== "string") return stack;
  return stack
    .split("\n")
    .filter((line) => !(FRAME_LINE.test(line) && HOST_FRAME.test(line)))
    .join("\n")
    .replace(EVAL_FRAME, `${AGENT_SCRIPT_NAME}:`);
}

/** The result or error of a `done` report; the report comes from the sandbox, so it is checked. */
export function fromDone(report: unknown, positions: AgentPositions, maxOutputBytes?: number): Outcome {
  let checked = report;
  if (typeof report === "object" && report !== null && "error" in report) {
    const error = (report as { error: unknown }).error;
    if (typeof error === "object" && error !== null) {
      checked = { ...report, error: { ...error, stack: scrubStack((error as { stack?: unknown }).stack) } };
    }
  }
  const outcome = fromReport(checked, positions, maxOutputBytes);
  const error = outcome.error;
  // An ArrayBuffer or wasm memory refused by the rlimit surfaces as a RangeError the code did not catch.
  if (error?.kind === "runtime" && error.name === "RangeError" && OUT_OF_MEMORY.test(error.message)) {
    return { error: { ...MEMORY_ERROR } };
  }
  return outcome;
}

/** The position of a syntax error in the agent's code, found by parsing (never running) it on the host. */
export function fromCompileError(
  name: string,
  message: string,
  code: string,
  positions: AgentPositions,
): ExecutionError {
  if (name !== "SyntaxError") return { kind: "runtime", name, message };
  const error: ExecutionError = { kind: "syntax", name: "SyntaxError", message };
  try {
    new Script(wrapAgentCode(code), { filename: AGENT_SCRIPT_NAME });
  } catch (parseError) {
    // Node prints "toolscript:agent:LINE\n<source line>\n   ^^^\n\nSyntaxError: ..." first in the stack.
    const [where = "", , caret = ""] = String((parseError as Error).stack).split("\n");
    const line = new RegExp(`^${AGENT_SCRIPT_NAME}:(\\d+)$`).exec(where)?.[1];
    if (line !== undefined && caret.includes("^")) {
      const position = positions.map(Number(line), caret.indexOf("^") + 1);
      error.line = position.line;
      error.column = position.column;
    }
  }
  return error;
}

/** Why a sandbox process ended without a report: stopped by the host, out of memory, or broken. */
export function fromExit(
  exit: ProcessExit,
  ended: EndReason | undefined,
  timeoutMs: number,
  positions: AgentPositions,
): ExecutionError {
  if (ended !== undefined) return fromFailure(undefined, ended, timeoutMs, positions);
  if (exit.violation !== undefined) {
    return { kind: "runtime", name: "Error", message: `Sandbox failure: ${exit.violation}` };
  }
  if (outOfMemory(exit)) return { ...MEMORY_ERROR };
  const status = exit.signal === null ? `exit code ${exit.code}` : `signal ${exit.signal}`;
  return {
    kind: "runtime",
    name: "Error",
    message: `Sandbox failure: the sandbox process ended unexpectedly (${status})`,
  };
}
