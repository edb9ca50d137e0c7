import { auditValues } from "../audit-values.ts";
import type { AuditBatch, AuditStore } from "../domains.ts";
import { DEFAULT_AUDIT_LIMIT } from "../reader.ts";
import { type AuditRow, toAudit } from "../rows.ts";
import type { AuditEntry, AuditUpdate } from "../types.ts";
import type { PostgresPool, Queryable } from "./pool.ts";

const COLUMNS = `time, session_id, server, tool, args_digest, args_bytes, outcome, duration_ms,
  kind, bytes_out, policy, detail, client, replica`;
const PER_ROW = 14;
/** Rows per INSERT: well under PostgreSQL's 65535 parameters of one statement. */
const ROWS_PER_INSERT = 1_000;

function values(entry: AuditEntry): unknown[] {
  return auditValues(entry, detailJson(entry.detail));
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

/** Inserts `entries` through `tx` (inside a transaction); their ids in order. */
async function insert(tx: Queryable, entries: readonly AuditEntry[]): Promise<number[]> {
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
}

/**
 * Completes records by id in one statement (a flush completes hundreds: one
 * round trip, not one each); the set of ids that were there.
 */
async function complete(
  tx: Queryable,
  updates: ReadonlyArray<{ id: number; update: AuditUpdate }>,
): Promise<Set<number>> {
  if (updates.length === 0) return new Set();
  const result = await tx.query<{ id: number }>(
    `UPDATE audit AS a SET outcome = v.outcome, duration_ms = v.duration_ms, bytes_out = v.bytes_out,
       policy = v.policy, detail = v.detail::jsonb
     FROM unnest($1::bigint[], $2::text[], $3::float8[], $4::bigint[], $5::text[], $6::text[])
       AS v(id, outcome, duration_ms, bytes_out, policy, detail)
     WHERE a.id = v.id RETURNING a.id`,
    [
      updates.map(({ id }) => id),
      updates.map(({ update }) => update.outcome),
      updates.map(({ update }) => update.durationMs),
      updates.map(({ update }) => update.bytesOut ?? null),
      updates.map(({ update }) => update.policy ?? null),
      updates.map(({ update }) => detailJson(update.detail)),
    ],
  );
  return new Set(result.rows.map((row) => row.id));
}

/** Audit records in PostgreSQL. No journal: records go to the shared store, not a local disk. */
export function postgresAudit(db: PostgresPool): AuditStore {
  return {
    append: (entries) => db.transaction((tx) => insert(tx, entries)),

    // One INSERT is its own transaction: committed (on the server, every replica sees it) when it resolves.
    appendNow: async (entry) => (await insert(db, [entry]))[0]!,

    update: (updates) =>
      db.transaction(async (tx) => {
        const found = await complete(tx, updates);
        return updates.map(({ id }) => found.has(id));
      }),

    write: (batch: AuditBatch) =>
      db.transaction(async (tx) => {
        const found = await complete(
          tx,
          batch.complete.map(({ id, entry }) => ({ id, update: entry })),
        );
        const gone = batch.complete.filter(({ id }) => !found.has(id)).map(({ entry }) => entry);
        await insert(tx, gone);
        return insert(tx, batch.append);
      }),

    async list(query = {}) {
      // detail as text: the row then maps as SQLite's does (rows.ts).
      const result = await db.query<AuditRow>(
        `SELECT id, ${COLUMNS.replace("detail", "detail::text AS detail")} FROM audit
         WHERE ($1::text IS NULL OR session_id = $1) AND ($2::text IS NULL OR client = $2)
           AND time >= $3 AND (NOT $4::boolean OR outcome LIKE 'policy.%')
           AND ($5::text IS NULL OR kind = $5) AND ($6::text IS NULL OR replica = $6)
         ORDER BY time DESC, id DESC LIMIT $7`,
        [
          query.session ?? null,
          query.client ?? null,
          query.since ?? 0,
          query.denied === true,
          query.kind ?? null,
          query.replica ?? null,
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
