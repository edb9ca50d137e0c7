import { messageOf } from "../errors/message-of.ts";
import type { RateLimitStore, RateTake } from "../store/domains.ts";
import { abortableSleep } from "./abortable-sleep.ts";
import { KeyedRateWindows } from "./rate-window.ts";

/** The shared windows of the store, when it is one replicas share; undefined: this process counts alone. */
export type SharedRates = () => RateLimitStore | undefined;

/**
 * At most `perMinute` events per key in any sliding minute, across replicas:
 * slots are taken in the store's shared windows when `shared()` gives them (a
 * PostgreSQL store: one transaction per take, measured 2.6–6 ms against a
 * local test server), else in this process's own windows (~0.2 µs). SQLite's
 * shared windows are not used on the per-call path: a take there is a commit,
 * measured at ~0.2–0.5 ms (durability normal) to ~3.4 ms (full, one fsync
 * each), a price per tool call for processes that seldom share a data directory.
 *
 * A store that fails while a slot is taken fails the take (fail closed): the
 * limit protects the upstream (and its quota) for every replica, and this
 * replica's own count would let N replicas send N times the limit without
 * anyone noticing; the store being down fails executions anyway. The error
 * names the limit and the store's failure.
 */
export class SharedRateLimit {
  readonly perMinute: number;
  readonly #shared: SharedRates;
  readonly #local: KeyedRateWindows;

  /** `perMinute` 0: unlimited. */
  constructor(perMinute: number, shared: SharedRates = () => undefined) {
    this.perMinute = perMinute;
    this.#shared = shared;
    this.#local = new KeyedRateWindows(perMinute);
  }

  /** Takes a slot in `key`'s window now, or says when one frees up. Rejects when the shared store fails. */
  async tryTake(key: string): Promise<RateTake> {
    if (this.perMinute === 0) return { ok: true };
    const shared = this.#shared();
    if (!shared) return this.#local.tryTake(key);
    try {
      return await shared.take(key, this.perMinute);
    } catch (error) {
      throw new Error(
        `the rate limit ${key} (${this.perMinute} per minute) is kept in the shared store, which failed: ${messageOf(error)}`,
        { cause: error },
      );
    }
  }

  /** Waits for a slot, up to `maxWaitMs`; false when none frees up in time or `signal` aborts. */
  async take(key: string, maxWaitMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.perMinute === 0) return true;
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const attempt = await this.tryTake(key);
      if (attempt.ok) return true;
      if (signal?.aborted || Date.now() + attempt.retryInMs > deadline) return false;
      await abortableSleep(attempt.retryInMs, signal);
    }
  }
}
