import type { VaultStore } from "../domains.ts";
import { asBytes } from "../rows.ts";
import type { PostgresPool } from "./pool.ts";
import { ensureSession } from "./sessions-and-files.ts";

/** Each session's PII vault in PostgreSQL: the caller's sealed blob, deleted with the session. */
export function postgresVaults(db: PostgresPool, now: () => number): VaultStore {
  return {
    put: (session, blob) =>
      db.transaction(async (tx) => {
        const time = now();
        await ensureSession(tx, session, time);
        await tx.query(
          `INSERT INTO vaults (session_id, blob, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (session_id) DO UPDATE SET blob = excluded.blob, updated_at = excluded.updated_at`,
          [session, toBuffer(blob), time],
        );
      }),

    async get(session) {
      const row = (
        await db.query<{ blob: Uint8Array }>("SELECT blob FROM vaults WHERE session_id = $1", [session])
      ).rows[0];
      return row && asBytes(row.blob);
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
