import { abortableSleep } from "./abortable-sleep.ts";

const WINDOW_MS = 60_000;

/**
 * At most `perMinute` events in any sliding 60-second window. `perMinute`
 * 0 means unlimited. Memory is bounded by `perMinute` timestamps.
 */
export class RateWindow {
  readonly #perMinute: number;
  readonly #times: number[] = [];
  readonly #now: () => number;

  constructor(perMinute: number, now: () => number = Date.now) {
    this.#perMinute = perMinute;
    this.#now = now;
  }

  /** Takes a slot now, or returns how many ms until one frees up. */
  tryTake(): { ok: true } | { ok: false; retryInMs: number } {
    if (this.#perMinute === 0) return { ok: true };
    const now = this.#now();
    while (this.#times.length > 0 && now - (this.#times[0] as number) >= WINDOW_MS) this.#times.shift();
    if (this.#times.length < this.#perMinute) {
      this.#times.push(now);
      return { ok: true };
    }
    return { ok: false, retryInMs: WINDOW_MS - (now - (this.#times[0] as number)) };
  }

  /** Waits for a slot, up to `maxWaitMs`; false when none frees up in time or `signal` aborts. */
  async take(maxWaitMs: number, signal?: AbortSignal): Promise<boolean> {
    const deadline = this.#now() + maxWaitMs;
    for (;;) {
      const attempt = this.tryTake();
      if (attempt.ok) return true;
      if (signal?.aborted || this.#now() + attempt.retryInMs > deadline) return false;
      await abortableSleep(attempt.retryInMs, signal);
    }
  }
}

/** One RateWindow per key (client token, address), forgetting keys idle for a window. */
export class KeyedRateWindows {
  readonly #perMinute: number;
  readonly #windows = new Map<string, { window: RateWindow; lastUsed: number }>();

  constructor(perMinute: number) {
    this.#perMinute = perMinute;
  }

  tryTake(key: string): { ok: true } | { ok: false; retryInMs: number } {
    if (this.#perMinute === 0) return { ok: true };
    const now = Date.now();
    if (this.#windows.size > 10_000) {
      for (const [name, entry] of this.#windows)
        if (now - entry.lastUsed > WINDOW_MS) this.#windows.delete(name);
    }
    let entry = this.#windows.get(key);
    if (!entry) {
      entry = { window: new RateWindow(this.#perMinute), lastUsed: now };
      this.#windows.set(key, entry);
    }
    entry.lastUsed = now;
    return entry.window.tryTake();
  }
}
