import type { Database, Statement, Transaction } from "better-sqlite3";
import type { RateTake } from "./domains.ts";
import { assertPerMinute, RATE_WINDOW_MS, rateVerdict } from "./rate-window.ts";

/**
 * Sliding one-minute windows in the `rate_windows` table, one row per event:
 * exact (never more than `perMinute` events in any 60 s), and shared by every
 * process on the data directory because each take runs in one IMMEDIATE
 * transaction (the write lock serializes the read and the insert).
 */
export class SqliteRateWindows {
  readonly #now: () => number;
  readonly #take: Transaction<(key: string, perMinute: number) => RateTake>;
  readonly #expire: Statement<[string, number]>;
  readonly #blocking: Statement<[string, number], { at: number }>;
  readonly #insert: Statement<[string, number]>;

  constructor(db: Database, now: () => number) {
    this.#now = now;
    this.#expire = db.prepare("DELETE FROM rate_windows WHERE key = ? AND at <= ?");
    this.#blocking = db.prepare(
      // The perMinute-th newest event: while it is in the window, the window is full.
      "SELECT at FROM rate_windows WHERE key = ? ORDER BY at DESC LIMIT 1 OFFSET ?",
    );
    this.#insert = db.prepare("INSERT INTO rate_windows (key, at) VALUES (?, ?)");
    this.#take = db.transaction((key: string, perMinute: number): RateTake => {
      const now = this.#now();
      this.#expire.run(key, now - RATE_WINDOW_MS);
      const verdict = rateVerdict(this.#blocking.get(key, perMinute - 1)?.at, now);
      if (verdict.ok) this.#insert.run(key, now);
      return verdict;
    });
  }

  take(key: string, perMinute: number): RateTake {
    assertPerMinute(perMinute);
    return this.#take.immediate(key, perMinute);
  }
}
