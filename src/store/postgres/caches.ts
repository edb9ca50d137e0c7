import type { CacheStore } from "../domains.ts";
import type { PostgresPool } from "./pool.ts";

/** Keyed values with an expiry in PostgreSQL; expired rows read as absent until `deleteExpired`. */
export function postgresCaches(db: PostgresPool, now: () => number): CacheStore {
  return {
    async get(namespace, key) {
      const result = await db.query<{ value: string }>(
        "SELECT value FROM cache_entries WHERE namespace = $1 AND key = $2 AND expires_at > $3",
        [namespace, key, now()],
      );
      return result.rows[0]?.value;
    },

    async put(namespace, key, value, ttlMs) {
      if (!(ttlMs > 0)) throw new RangeError(`cache entry ttlMs must be positive, got ${ttlMs}`);
      await db.query(
        `INSERT INTO cache_entries (namespace, key, value, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
        [namespace, key, value, now() + ttlMs],
      );
    },

    async deleteExpired() {
      return (await db.query("DELETE FROM cache_entries WHERE expires_at <= $1", [now()])).rowCount ?? 0;
    },
  };
}
