export class BusyError extends Error {
  override readonly name = "BusyError";
  readonly code = "gateway.busy";
  readonly data: { running: number; queued: number };

  constructor(running: number, queued: number) {
    super(
      `the gateway is busy: ${running} executions are running and ${queued} are queued (the limit); retry shortly`,
    );
    this.data = { running, queued };
  }
}

/**
 * Caps executions running at once; later ones wait in a bounded FIFO queue,
 * and beyond the queue they are refused with BusyError at once, so memory
 * never grows without bound under load.
 */
export class ExecutionGate {
  readonly #maxRunning: number;
  readonly #maxQueued: number;
  #running = 0;
  #queue: Array<() => void> = [];

  constructor(maxRunning: number, maxQueued: number) {
    this.#maxRunning = maxRunning;
    this.#maxQueued = maxQueued;
  }

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#queue.length;
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#enter(signal);
    try {
      return await task();
    } finally {
      this.#running--;
      this.#queue.shift()?.();
    }
  }

  #enter(signal?: AbortSignal): Promise<void> {
    if (this.#running < this.#maxRunning) {
      this.#running++;
      return Promise.resolve();
    }
    if (this.#queue.length >= this.#maxQueued)
      return Promise.reject(new BusyError(this.#running, this.#queue.length));
    return new Promise((resolve, reject) => {
      const admit = () => {
        signal?.removeEventListener("abort", onAbort);
        this.#running++;
        resolve();
      };
      const onAbort = () => {
        this.#queue = this.#queue.filter((entry) => entry !== admit);
        reject(signal?.reason ?? new Error("cancelled while queued"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(admit);
    });
  }
}
