import { STARTED_OUTCOME } from "../../src/audit/audit-log.ts";
import type { Logger } from "../../src/gateway/logger.ts";
import type { AuditEntry } from "../../src/store/types.ts";

/** A tool call's audit record at `time`: started (no duration yet) unless `outcome` says otherwise. */
export function toolCallEntry(tool: string, outcome = STARTED_OUTCOME, time = 1_000): AuditEntry {
  return {
    kind: "tool_call",
    time,
    session: "a",
    server: "fs",
    tool,
    argsDigest: "d",
    argsBytes: 2,
    outcome,
    durationMs: outcome === STARTED_OUTCOME ? 0 : 4,
  };
}

/** A logger that keeps its errors for the test to read. */
export function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, info() {}, warn() {}, error: (message) => errors.push(message) };
}
