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
 * The verdict of a window holding `count` events (the oldest at `oldest`) at
 * `now`: a slot, or the wait until the oldest leaves the window.
 */
export function rateVerdict(count: number, oldest: number | null, perMinute: number, now: number): RateTake {
  if (count < perMinute || oldest === null) return { ok: true };
  return { ok: false, retryInMs: Math.max(1, oldest + RATE_WINDOW_MS - now) };
}
