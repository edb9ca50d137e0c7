/**
 * Caps how many calls run at once against one upstream; the rest wait in
 * FIFO order. A waiter whose signal aborts leaves the queue.
 */
export class ConcurrencyLimiter {
  readonly #max: number;
  #active = 0;
  #queue: Array<{ grant: () => void; reject: (reason: unknown) => void }> = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${max}`);
    this.#max = max;
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.#active < this.#max) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          this.#active++;
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        this.#queue = this.#queue.filter((queued) => queued !== entry);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(entry);
    });
  }

  #release(): void {
    this.#active--;
    this.#queue.shift()?.grant();
  }
}
