import type { AuditStore } from "../domains.ts";
import { DEFAULT_AUDIT_LIMIT } from "../reader.ts";
import { type AuditRow, toAudit } from "../rows.ts";
import type { AuditEntry } from "../types.ts";
import type { PostgresPool } from "./pool.ts";

const COLUMNS = `time, session_id, server, tool, args_digest, args_bytes, outcome, duration_ms,
  kind, bytes_out, policy, detail, client`;
const PER_ROW = 13;
/** Rows per INSERT: well under PostgreSQL's 65535 parameters of one statement. */
const ROWS_PER_INSERT = 1_000;

function values(entry: AuditEntry): unknown[] {
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
    detailJson(entry.detail),
    entry.client ?? null,
  ];
}

/**
 * `detail` as JSON for a jsonb column, which refuses the NUL character (`\u0000`)
 * in strings: NUL becomes U+FFFD rather than failing the whole batch of records.
 */
function detailJson(detail: Record<string, unknown> | null | undefined): string | null {
  if (!detail) return null;
  return JSON.stringify(detail, (_key, value: unknown) =>
    typeof value === "string" ? value.replaceAll("\0", "\uFFFD") : value,
  );
}

function placeholders(rows: number): string {
  return Array.from({ length: rows }, (_, row) => {
    const first = row * PER_ROW;
    const cells = Array.from({ length: PER_ROW }, (_, i) =>
      i === 11 ? `$${first + i + 1}::jsonb` : `$${first + i + 1}`,
    );
    return `(${cells.join(", ")})`;
  }).join(", ");
}

/** Audit records in PostgreSQL. No journal: records go to the shared store, not a local disk. */
export function postgresAudit(db: PostgresPool): AuditStore {
  return {
    append: (entries) =>
      db.transaction(async (tx) => {
        const ids: number[] = [];
        for (let start = 0; start < entries.length; start += ROWS_PER_INSERT) {
          const chunk = entries.slice(start, start + ROWS_PER_INSERT);
          const result = await tx.query<{ id: number }>(
            `INSERT INTO audit (${COLUMNS}) VALUES ${placeholders(chunk.length)} RETURNING id`,
            chunk.flatMap(values),
          );
          // One statement draws its ids in row order; RETURNING's order is not promised, the ids' is.
          ids.push(...result.rows.map((row) => row.id).sort((a, b) => a - b));
        }
        return ids;
      }),

    update: (updates) =>
      db.transaction(async (tx) => {
        const found: boolean[] = [];
        for (const { id, update } of updates) {
          const result = await tx.query(
            `UPDATE audit SET outcome = $2, duration_ms = $3, bytes_out = $4, policy = $5, detail = $6::jsonb
             WHERE id = $1`,
            [
              id,
              update.outcome,
              update.durationMs,
              update.bytesOut ?? null,
              update.policy ?? null,
              detailJson(update.detail),
            ],
          );
          found.push((result.rowCount ?? 0) > 0);
        }
        return found;
      }),

    async list(query = {}) {
      // detail as text: the row then maps as SQLite's does (rows.ts).
      const result = await db.query<AuditRow>(
        `SELECT id, ${COLUMNS.replace("detail", "detail::text AS detail")} FROM audit
         WHERE ($1::text IS NULL OR session_id = $1) AND ($2::text IS NULL OR client = $2)
           AND time >= $3 AND (NOT $4::boolean OR outcome LIKE 'policy.%')
         ORDER BY time DESC, id DESC LIMIT $5`,
        [
          query.session ?? null,
          query.client ?? null,
          query.since ?? 0,
          query.denied === true,
          query.limit ?? DEFAULT_AUDIT_LIMIT,
        ],
      );
      return result.rows.map(toAudit);
    },

    async prune(before) {
      return (await db.query("DELETE FROM audit WHERE time < $1", [before])).rowCount ?? 0;
    },

    openJournal: () => undefined,
  };
}
