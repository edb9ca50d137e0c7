import type { Context } from "@opentelemetry/api";
import type { AuditLog } from "../audit/audit-log.ts";
import { recordExecution } from "../audit/execution-record.ts";
import type { ViolationCounter } from "../audit/violations.ts";
import { BusyError, type ExecutionGate } from "../limits/execution-gate.ts";
import { anomalyRefusal } from "../ops/anomaly/execution-refusal.ts";
import type { SessionResponses } from "../ops/anomaly/session-responses.ts";
import { CallLedger } from "../output/accounting.ts";
import { catastrophicIsolates } from "../sandbox/isolate/isolate-pool.ts";
import { ISOLATE_LOST_CODE } from "../sandbox/isolate/run-outcome.ts";
import type { ExecutionError } from "../sandbox/types.ts";
import type { SecretRedactor } from "../secrets/redactor.ts";
import { type AnswerDeps, finishAnswer } from "./finish-answer.ts";
import type { Logger } from "./logger.ts";
import { type ProgramDeps, runProgram } from "./run-program.ts";
import type { SandboxRuntimes } from "./sandbox-runtimes.ts";
import type { SessionStates } from "./session-state.ts";
import type { ExecuteRequest, ExecuteResponse } from "./types.ts";

/** The parts of the gateway one execution goes through, admission to answer. */
export interface ExecutionDeps {
  pii: boolean;
  states: SessionStates;
  anomalyResponses: SessionResponses;
  gate: ExecutionGate;
  runtimes: SandboxRuntimes;
  audit: () => AuditLog;
  violations: ViolationCounter;
  redactor: SecretRedactor;
  logger: Logger;
  program: () => ProgramDeps;
  answer: () => AnswerDeps;
}

/**
 * One execution: admitted (session, anomaly responses, the vault brought up
 * to date), run behind the gate, audited, then answered. `trace` is its span's
 * context, the parent of the program's calls.
 */
export async function executeProgram(
  deps: ExecutionDeps,
  request: ExecuteRequest,
  session: string,
  client: string | null,
  trace: Context,
): Promise<ExecuteResponse> {
  const started = performance.now();
  const ledger = new CallLedger();
  let response: ExecuteResponse;
  // Checked first: a refused session's vault, workspace and totals are never opened. The vault
  // next: tokens another replica issued must turn back into their values in this program.
  const refused =
    (await deps.states.touch(session, client)) ??
    anomalyRefusal(deps.anomalyResponses, session, client) ??
    (deps.pii ? await deps.states.refreshVault(session) : undefined);
  try {
    response = refused
      ? notRun(session, refused, 0)
      : await deps.gate.run(
          () => runProgram(deps.program(), request, session, client, ledger, trace),
          request.signal,
        );
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    const busy = { kind: "runtime" as const, name: error.name, message: error.message, code: error.code };
    response = notRun(session, busy, performance.now() - started);
  }
  // Committed before the answer leaves: an acknowledged execution is on record even if this replica dies.
  await recordExecution(deps.audit(), deps.violations, {
    session,
    client,
    code: request.code,
    language: request.language ?? "typescript",
    tier: deps.runtimes.tierOf(request.language),
    result: response,
    toolCalls: response.toolCalls,
    returnedBytes: response.returnedBytes,
  });
  if (response.error?.code === ISOLATE_LOST_CODE) {
    deps.logger.error(
      `session "${session}": V8 gave up on an isolate (fatal out of memory); the execution failed as kind memory and the gateway keeps serving, but that isolate's memory stays taken until the gateway restarts (${catastrophicIsolates()} lost in this process)`,
    );
  }
  if (refused) return response;
  return await finishAnswer(deps.answer(), deps.redactor.redactExecution(response), request, ledger);
}

/** The response of an execution that never ran: refused, or turned away busy. */
function notRun(session: string, error: ExecutionError, durationMs: number): ExecuteResponse {
  return { session, toolCalls: 0, failedToolCalls: 0, toolResultBytes: 0, logs: [], durationMs, error };
}
