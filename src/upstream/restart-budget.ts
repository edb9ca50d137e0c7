/** A connection that stayed up this long resets the restart budget. */
const STABLE_AFTER_MS = 10_000;

export interface RestartPolicy {
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

/**
 * When a server that failed is tried again: `maxRetries` quick attempts with
 * the delay doubling from `initialDelayMs`, then every `maxDelayMs` for good
 * (it may come back: a network blip, a fixed credential, and nobody should
 * have to restart the gateway for that). A server that dies soon after each
 * start keeps its count instead of starting over.
 */
export class RestartBudget {
  readonly #policy: RestartPolicy;
  /** Attempts started after a failure. */
  restarts = 0;
  /** Failures since the server was last ready long enough. */
  failures = 0;
  /** When the next attempt starts (ms since epoch), while one is scheduled. */
  nextRetryAt: number | undefined;
  #flappedFailures = 0;
  #readySince = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(policy: RestartPolicy) {
    this.#policy = policy;
  }

  get maxRetries(): number {
    return this.#policy.maxRetries;
  }

  /** Past the quick attempts: the server counts as "failed". */
  get exhausted(): boolean {
    return this.failures > this.#policy.maxRetries;
  }

  ready(): void {
    this.failures = 0;
    this.#readySince = Date.now();
  }

  /** A ready connection closed: soon after it was ready, the failures before it still count. */
  closed(): void {
    if (Date.now() - this.#readySince < STABLE_AFTER_MS) this.failures = this.#flappedFailures;
  }

  /** Counts a failure and schedules `retry`. */
  fail(retry: () => void): void {
    this.failures++;
    this.#flappedFailures = this.failures;
    const { initialDelayMs, maxDelayMs } = this.#policy;
    const delay = this.exhausted
      ? maxDelayMs
      : Math.min(initialDelayMs * 2 ** (this.failures - 1), maxDelayMs);
    this.nextRetryAt = Date.now() + delay;
    this.#timer = setTimeout(() => {
      this.restarts++;
      retry();
    }, delay);
    this.#timer.unref();
  }

  /** The scheduled attempt starts (or is cancelled): no retry is pending any more. */
  started(): void {
    this.nextRetryAt = undefined;
  }

  cancel(): void {
    clearTimeout(this.#timer);
    this.nextRetryAt = undefined;
  }
}
