import type { SandboxProcess } from "./sandbox-process.ts";

export const DEFAULT_PROCESS_POOL_SIZE = 2;
/** Time a sandbox process gets to say `ready` before a run gives up on it. */
export const DEFAULT_START_TIMEOUT_MS = 10_000;

export interface ProcessPoolOptions {
  /** Starts one sandbox process for a memory limit. */
  start: (memoryMb: number) => SandboxProcess;
  /** Processes kept started and idle; 0 starts one per execution. */
  size?: number;
  startTimeoutMs?: number;
}

/**
 * Keeps a few sandbox processes started ahead of time (Deno's cold start is
 * tens of milliseconds). Each one is handed out once and never comes back:
 * it serves one execution and is killed, so nothing is shared between runs
 * or sessions. Processes are pooled for one memory limit at a time (the last
 * one asked for), since the limit is fixed when the process starts.
 */
export class ProcessPool {
  readonly #start: (memoryMb: number) => SandboxProcess;
  readonly #size: number;
  readonly #startTimeoutMs: number;
  #memoryMb: number | undefined;
  #idle: SandboxProcess[] = [];

  /** Processes started and waiting for a run. */
  get warm(): number {
    return this.#idle.length;
  }
  #closed = false;

  constructor(options: ProcessPoolOptions) {
    this.#start = options.start;
    this.#size = Math.max(0, Math.floor(options.size ?? DEFAULT_PROCESS_POOL_SIZE));
    this.#startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  }

  /** Starts processes for `memoryMb` in the background. */
  prewarm(memoryMb: number): void {
    this.#switchTo(memoryMb);
    this.refill();
  }

  /** A ready process for this memory limit: an idle one when there is one, else a new one. */
  async acquire(memoryMb: number): Promise<SandboxProcess> {
    if (this.#closed) throw new Error("the process pool is closed");
    this.#switchTo(memoryMb);
    let child = this.#idle.shift();
    while (child !== undefined && !child.alive) child = this.#idle.shift();
    child ??= this.#start(memoryMb);
    const timer = setTimeout(() => child.kill(), this.#startTimeoutMs);
    try {
      await child.ready;
    } finally {
      clearTimeout(timer);
    }
    return child;
  }

  /** Tops the pool up; called when a run has ended, so starting never competes with it. */
  refill(): void {
    const memoryMb = this.#memoryMb;
    if (this.#closed || memoryMb === undefined) return;
    this.#idle = this.#idle.filter((child) => child.alive);
    while (this.#idle.length < this.#size) {
      let child: SandboxProcess;
      try {
        child = this.#start(memoryMb);
      } catch {
        return;
      }
      this.#idle.push(child);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#drain();
  }

  #switchTo(memoryMb: number): void {
    if (this.#memoryMb === memoryMb) return;
    this.#memoryMb = memoryMb;
    void this.#drain();
  }

  async #drain(): Promise<void> {
    const idle = this.#idle;
    this.#idle = [];
    for (const child of idle) child.kill();
    await Promise.all(idle.map((child) => child.exited));
  }
}
