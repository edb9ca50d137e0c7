import type { Database, Statement } from "better-sqlite3";

/**
 * Keyed values with an expiry in the `cache_entries` table: what should
 * outlive a restart but not forever (generated tools by task, model answers by
 * request). Expired rows read as absent and are deleted by `deleteExpired`.
 */
export class CacheEntries {
  readonly #now: () => number;
  readonly #get: Statement<[string, string, number], { value: string }>;
  readonly #put: Statement<[string, string, string, number]>;
  readonly #deleteExpired: Statement<[number]>;

  constructor(db: Database, now: () => number) {
    this.#now = now;
    this.#get = db.prepare(
      "SELECT value FROM cache_entries WHERE namespace = ? AND key = ? AND expires_at > ?",
    );
    this.#put = db.prepare(`
      INSERT INTO cache_entries (namespace, key, value, expires_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`);
    this.#deleteExpired = db.prepare("DELETE FROM cache_entries WHERE expires_at <= ?");
  }

  get(namespace: string, key: string): string | undefined {
    return this.#get.get(namespace, key, this.#now())?.value;
  }

  put(namespace: string, key: string, value: string, ttlMs: number): void {
    if (!(ttlMs > 0)) throw new RangeError(`cache entry ttlMs must be positive, got ${ttlMs}`);
    this.#put.run(namespace, key, value, this.#now() + ttlMs);
  }

  deleteExpired(): number {
    return this.#deleteExpired.run(this.#now()).changes;
  }
}
