/** Buckets of a sliding window: enough to be smooth, few enough to clear in O(1). */
const BUCKETS = 10;

/**
 * A sum over the last `windowMs` (ten buckets, so it slides in tenths of the
 * window) and the usual sum per window: the mean over the past windows in
 * which anything was added. A closed window joins the usual only once it is
 * wholly out of the sliding window: else the start of a burst that straddles
 * a window boundary would become its own usual and raise its own bar.
 * O(1) per call.
 */
export class RollingCounter {
  readonly #windowMs: number;
  readonly #bucketMs: number;
  readonly #buckets = new Float64Array(BUCKETS);
  /** Absolute index (time / bucketMs) of the newest bucket. */
  #head = Number.NEGATIVE_INFINITY;
  #sum = 0;
  /** Absolute index (time / windowMs) of the window being counted, and its sum so far. */
  #window = -1;
  #windowSum = 0;
  /** The last closed window while it still overlaps the sliding window: its end and sum. */
  #pendingEnd = 0;
  #pendingSum: number | undefined;
  #closedSum = 0;
  #closedWindows = 0;

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
    this.#bucketMs = windowMs / BUCKETS;
  }

  /**
   * Adds `amount` (0 still marks the window active) at `now`; returns the sum
   * of a window that joined the usual, if one did, for a gateway-wide pool.
   */
  add(now: number, amount: number): number | undefined {
    this.#slide(now);
    const bucket = Math.floor(now / this.#bucketMs) % BUCKETS;
    this.#buckets[bucket] = (this.#buckets[bucket] ?? 0) + amount;
    this.#sum += amount;
    // Before a window closes, the pending one (older) has always left the sliding window.
    const joined = this.#settle(now);
    const window = Math.floor(now / this.#windowMs);
    if (window > this.#window) {
      if (this.#window >= 0) {
        this.#pendingEnd = (this.#window + 1) * this.#windowMs;
        this.#pendingSum = this.#windowSum;
      }
      this.#window = window;
      this.#windowSum = 0;
    }
    this.#windowSum += amount;
    return joined;
  }

  /** The sum over the last window. */
  recent(now: number): number {
    this.#slide(now);
    return this.#sum;
  }

  /** The mean sum of the past active windows out of the sliding window at `now`; 0 before there is one. */
  usual(now: number): number {
    const settled = this.#pendingSum !== undefined && now >= this.#pendingEnd + this.#windowMs;
    const sum = this.#closedSum + (settled ? (this.#pendingSum ?? 0) : 0);
    const windows = this.#closedWindows + (settled ? 1 : 0);
    return windows === 0 ? 0 : sum / windows;
  }

  /** Joins the pending window to the usual once the sliding window has left it; returns its sum then. */
  #settle(now: number): number | undefined {
    const sum = this.#pendingSum;
    if (sum === undefined || now < this.#pendingEnd + this.#windowMs) return undefined;
    this.#closedSum += sum;
    this.#closedWindows++;
    this.#pendingSum = undefined;
    return sum;
  }

  /** Clears the buckets that fell out of the window (at most all ten). */
  #slide(now: number): void {
    const head = Math.floor(now / this.#bucketMs);
    if (head <= this.#head) return;
    const stale = Math.min(BUCKETS, head - this.#head);
    for (let step = 1; step <= stale; step++) {
      const index = (((head - stale + step) % BUCKETS) + BUCKETS) % BUCKETS;
      this.#sum -= this.#buckets[index] ?? 0;
      this.#buckets[index] = 0;
    }
    // Float drift from adding and removing fractions never leaves a negative sum.
    if (this.#sum < 1e-9) this.#sum = Math.max(0, this.#sum);
    this.#head = head;
  }
}

/** The gateway's usual: the mean over every session's closed windows (one per session and window). */
export class PooledMean {
  #sum = 0;
  #count = 0;

  add(value: number): void {
    this.#sum += value;
    this.#count++;
  }

  mean(): number {
    return this.#count === 0 ? 0 : this.#sum / this.#count;
  }
}
