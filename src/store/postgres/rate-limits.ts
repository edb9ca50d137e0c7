import type { RateLimitStore } from "../domains.ts";
import { assertPerMinute, RATE_WINDOW_MS, rateVerdict } from "../rate-window.ts";
import type { PostgresPool } from "./pool.ts";

/** First key of the transaction-level advisory locks that serialize takes of one window ("tsrl"). */
const RATE_LOCK_CLASS = 0x7473726c;

/**
 * Sliding one-minute windows in PostgreSQL, one row per event: exact across
 * replicas because each take holds an advisory lock on its key (by hash: two
 * keys sharing one only wait for each other) while it reads the window and inserts.
 */
export function postgresRateLimits(db: PostgresPool, now: () => number): RateLimitStore {
  return {
    async take(key, perMinute) {
      assertPerMinute(perMinute);
      return db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [RATE_LOCK_CLASS, key]);
        const time = now();
        await tx.query("DELETE FROM rate_windows WHERE key = $1 AND at <= $2", [key, time - RATE_WINDOW_MS]);
        // The perMinute-th newest event: while it is in the window, the window is full.
        const blocking = await tx.query<{ at: number }>(
          "SELECT at FROM rate_windows WHERE key = $1 ORDER BY at DESC LIMIT 1 OFFSET $2",
          [key, perMinute - 1],
        );
        const verdict = rateVerdict(blocking.rows[0]?.at, time);
        if (verdict.ok) await tx.query("INSERT INTO rate_windows (key, at) VALUES ($1, $2)", [key, time]);
        return verdict;
      });
    },
  };
}
