import { jsonBytesUpTo } from "../output/bound-value.ts";
import type { ExecutionResult } from "../sandbox/types.ts";
import type { AuditLog } from "./audit-log.ts";
import { sha256Hex } from "./sha256-hex.ts";
import { looksLikeEscapeAttempt, type ViolationCounter, type ViolationKind } from "./violations.ts";

export interface ExecutionRecord {
  session: string;
  /** The client that ran it; null: the local client. */
  client?: string | null;
  code: string;
  tier: string;
  /** typescript, javascript or python. */
  language?: string | undefined;
  result: ExecutionResult;
  toolCalls: number;
  /** Bytes of the returned value, when already measured. */
  returnedBytes?: number | undefined;
}

/**
 * Which violation an execution's failure counts as, if any. Policy refusals
 * are counted per tool call by the audit middleware, not again here. A busy
 * gateway refusing to queue a program is load, not misbehaviour: not counted.
 */
export function violationOf(result: ExecutionResult): ViolationKind | undefined {
  const error = result.error;
  if (!error) return undefined;
  if (error.kind === "timeout") return "timeout";
  if (error.kind === "memory") return "memory";
  if (error.kind === "policy") return undefined;
  if (error.name === "BusyError" || error.code === "gateway.busy") return undefined;
  if (error.name === "LimitError") return "limit";
  if (looksLikeEscapeAttempt(error.message)) return "escape";
  return undefined;
}

/**
 * One audit record for a whole execution: code hash, tier, outcome, limits hit.
 * Resolves (never rejects) once it is committed, or its failure logged.
 */
export function recordExecution(
  log: AuditLog,
  violations: ViolationCounter,
  record: ExecutionRecord,
): Promise<void> {
  const { result } = record;
  const violation = violationOf(result);
  if (violation) violations.add(record.session, violation);
  const refused = result.error?.kind === "policy";
  return log.recordNow(
    {
      kind: "execution",
      time: Date.now(),
      session: record.session,
      ...(record.client != null && { client: record.client }),
      server: "",
      tool: record.tier,
      argsDigest: sha256Hex(record.code),
      argsBytes: Buffer.byteLength(record.code),
      outcome: result.error ? `${result.error.kind}:${result.error.name}` : "ok",
      durationMs: Math.round(result.durationMs * 100) / 100,
      bytesOut:
        record.returnedBytes ??
        (result.result === undefined ? 0 : jsonBytesUpTo(result.result, Number.MAX_SAFE_INTEGER).bytes),
      detail: {
        toolCalls: record.toolCalls,
        ...(record.language !== undefined && { language: record.language }),
        toolResultBytes: result.toolResultBytes ?? 0,
        ...(result.error && { errorKind: result.error.kind, errorName: result.error.name }),
        ...(violation && { violation }),
      },
    },
    violation !== undefined || refused,
  );
}
