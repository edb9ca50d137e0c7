import type { AuditEntry } from "./types.ts";

/** An audit row in the order of the INSERT's columns (SQLite's audit_log, PostgreSQL's audit). */
export type AuditValues = [
  time: number,
  session: string | null,
  server: string,
  tool: string,
  argsDigest: string,
  argsBytes: number,
  outcome: string,
  durationMs: number,
  kind: string,
  bytesOut: number | null,
  policy: string | null,
  detail: string | null,
  client: string | null,
  replica: string | null,
];

/** `entry` as a row of the audit table on either engine, `detail` already encoded as that engine stores it. */
export function auditValues(entry: AuditEntry, detail: string | null): AuditValues {
  return [
    entry.time,
    entry.session,
    entry.server,
    entry.tool,
    entry.argsDigest,
    entry.argsBytes,
    entry.outcome,
    entry.durationMs,
    entry.kind ?? "tool_call",
    entry.bytesOut ?? null,
    entry.policy ?? null,
    detail,
    entry.client ?? null,
    entry.replica ?? null,
  ];
}
