import { randomUUID } from "node:crypto";
import type { VaultStore } from "../domains.ts";
import { asBytes } from "../rows.ts";
import type { PostgresPool } from "./pool.ts";
import { ensureSession } from "./sessions-and-files.ts";

/**
 * Each session's PII vault in PostgreSQL: the caller's sealed blob, deleted with
 * the session. A put is compare-and-set on the revision: of two replicas
 * writing over one revision at once, the second's UPDATE waits for the first's
 * commit, re-reads the row and matches nothing; of two inserting the first
 * vault, the second's insert conflicts and does nothing.
 */
export function postgresVaults(db: PostgresPool, now: () => number): VaultStore {
  return {
    put: (session, blob, expected) =>
      db.transaction(async (tx) => {
        const time = now();
        await ensureSession(tx, session, time);
        const revision = randomUUID();
        const written =
          expected === undefined
            ? await tx.query(
                `INSERT INTO vaults (session_id, blob, updated_at, revision) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (session_id) DO NOTHING`,
                [session, toBuffer(blob), time, revision],
              )
            : await tx.query(
                `UPDATE vaults SET blob = $2, updated_at = $3, revision = $4
                 WHERE session_id = $1 AND revision = $5`,
                [session, toBuffer(blob), time, revision, expected],
              );
        return (written.rowCount ?? 0) > 0 ? revision : undefined;
      }),

    async get(session) {
      const row = (
        await db.query<{ blob: Uint8Array; revision: string }>(
          "SELECT blob, revision FROM vaults WHERE session_id = $1",
          [session],
        )
      ).rows[0];
      return row && { blob: asBytes(row.blob), revision: row.revision };
    },

    async revision(session) {
      const row = (
        await db.query<{ revision: string }>("SELECT revision FROM vaults WHERE session_id = $1", [session])
      ).rows[0];
      return row?.revision;
    },

    async delete(session) {
      return ((await db.query("DELETE FROM vaults WHERE session_id = $1", [session])).rowCount ?? 0) > 0;
    },
  };
}

/** bytea parameters must be Buffers (a plain Uint8Array would be sent as text). */
export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
