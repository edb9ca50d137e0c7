import type { RateTake } from "./domains.ts";

/** The span of a rate limit's sliding window: at most `perMinute` events in any 60 s. */
export const RATE_WINDOW_MS = 60_000;

/** Throws unless `perMinute` is a positive integer (a limit of 0 means "no limit": the caller does not ask). */
export function assertPerMinute(perMinute: number): void {
  if (!Number.isInteger(perMinute) || perMinute < 1) {
    throw new RangeError(`rate limit perMinute must be a positive integer, got ${perMinute}`);
  }
}

/**
 * The verdict at `now` for a window whose `perMinute`-th newest event is at
 * `blocking` (undefined when it holds fewer): a slot, or the wait until that
 * event leaves the window, leaving fewer than `perMinute` (also right when the
 * limit was lowered and the window holds more).
 */
export function rateVerdict(blocking: number | undefined, now: number): RateTake {
  if (blocking === undefined) return { ok: true };
  return { ok: false, retryInMs: Math.max(1, blocking + RATE_WINDOW_MS - now) };
}
