import type { CredentialStore } from "../domains.ts";
import { asBytes } from "../rows.ts";
import type { CredentialInfo } from "../types.ts";
import type { PostgresPool } from "./pool.ts";
import { toBuffer } from "./vaults.ts";

/** Upstream servers' OAuth credentials in PostgreSQL: sealed blobs by server name, shared by every replica. */
export function postgresCredentials(db: PostgresPool, now: () => number): CredentialStore {
  return {
    async put(server, blob) {
      await db.query(
        `INSERT INTO credentials (server, blob, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (server) DO UPDATE SET blob = excluded.blob, updated_at = excluded.updated_at`,
        [server, toBuffer(blob), now()],
      );
    },

    async get(server) {
      const row = (
        await db.query<{ blob: Uint8Array }>("SELECT blob FROM credentials WHERE server = $1", [server])
      ).rows[0];
      return row && asBytes(row.blob);
    },

    async delete(server) {
      return ((await db.query("DELETE FROM credentials WHERE server = $1", [server])).rowCount ?? 0) > 0;
    },

    async list() {
      const sql = 'SELECT server, updated_at AS "updatedAt" FROM credentials ORDER BY server';
      return (await db.query<CredentialInfo>(sql)).rows;
    },
  };
}
