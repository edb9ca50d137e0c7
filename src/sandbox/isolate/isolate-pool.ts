import ivm from "isolated-vm";
import { countCatastrophe } from "./catastrophes.ts";
import { exitWithoutIsolateTeardown } from "./exit-without-teardown.ts";
import { PRELUDE_FILE_NAME, PRELUDE_SOURCE } from "./prelude.ts";

/** An isolate with its context and prelude ready, used for exactly one execution. */
export interface PreparedIsolate {
  isolate: ivm.Isolate;
  context: ivm.Context;
  /** The prelude's `start(agent, call, search, log, toolsJson, contextJson, limitsJson, op, random)`. */
  start: ivm.Reference<(...args: unknown[]) => Promise<unknown>>;
  /**
   * Called when V8 gives up on the isolate (a fatal out-of-memory it cannot
   * recover from, isolated-vm#527). Its thread never returns, so the run must
   * end without waiting for it.
   */
  onCatastrophe?: ((message: string) => void) | undefined;
}

export const DEFAULT_POOL_SIZE = 2;

function disposeQuietly(isolate: ivm.Isolate): void {
  try {
    if (!isolate.isDisposed) isolate.dispose();
  } catch {
    // Already gone: nothing left to free.
  }
}

/**
 * V8's code cache of the prelude, made by the first isolate and reused by the
 * next (V8 checks it matches the source and flags, else compiles afresh): most
 * of preparing an isolate is compiling the prelude.
 */
let preludeCache: ivm.ExternalCopy<ArrayBuffer> | undefined;

/** Creates an isolate, a context and runs the prelude in it. */
export async function prepareIsolate(memoryMb: number): Promise<PreparedIsolate> {
  exitWithoutIsolateTeardown();
  let prepared: PreparedIsolate | undefined;
  let lost: string | undefined;
  // Without this handler isolated-vm aborts the whole process: one hostile program would end every session.
  const isolate = new ivm.Isolate({
    memoryLimit: memoryMb,
    onCatastrophicError: (message: string) => {
      lost = message;
      countCatastrophe();
      prepared?.onCatastrophe?.(message);
    },
  });
  try {
    const context = await isolate.createContext();
    // Compiled before any agent code exists in this isolate: the cache holds only the prelude's code.
    const prelude = (await isolate.compileScript(PRELUDE_SOURCE, {
      filename: PRELUDE_FILE_NAME,
      ...(preludeCache !== undefined ? { cachedData: preludeCache } : { produceCachedData: true }),
    })) as ivm.Script & ivm.CachedDataResult & { cachedDataRejected?: boolean };
    if (prelude.cachedDataRejected === true) preludeCache = undefined;
    else if (preludeCache === undefined && prelude.cachedData !== undefined)
      preludeCache = prelude.cachedData;
    const start = (await prelude.run(context, { reference: true })) as PreparedIsolate["start"];
    prelude.release();
    prepared = { isolate, context, start };
    if (lost !== undefined) throw new Error(`the isolate failed while being prepared: ${lost}`);
    return prepared;
  } catch (error) {
    disposeQuietly(isolate);
    throw error;
  }
}

export { catastrophicIsolates } from "./catastrophes.ts";

export function disposePrepared(prepared: PreparedIsolate): void {
  disposeQuietly(prepared.isolate);
}

export interface IsolatePoolOptions {
  /** Isolates kept ready; 0 disables pooling. */
  size?: number;
}

/**
 * Keeps a few isolates prepared ahead of time so an execution does not pay for
 * creating one. Each is handed out once and never returns: nothing can leak
 * from one execution into the next. Isolates are pooled for one memory limit
 * at a time (the last one asked for), since the limit is fixed at creation.
 */
export class IsolatePool {
  readonly #size: number;
  #memoryMb: number | undefined;
  #ready: Promise<PreparedIsolate | undefined>[] = [];
  #refilling = false;
  #closed = false;

  constructor(options: IsolatePoolOptions = {}) {
    this.#size = Math.max(0, Math.floor(options.size ?? DEFAULT_POOL_SIZE));
  }

  /** Isolates prepared or being prepared, waiting for a run. */
  get warm(): number {
    return this.#ready.length;
  }

  /** Starts preparing isolates for `memoryMb` in the background. */
  prewarm(memoryMb: number): void {
    this.#switchTo(memoryMb);
    this.#scheduleRefill();
  }

  /** A prepared isolate for this memory limit: a pooled one when ready, else a new one. */
  async acquire(memoryMb: number): Promise<PreparedIsolate> {
    if (this.#closed) throw new Error("the isolate pool is closed");
    this.#switchTo(memoryMb);
    while (this.#ready.length > 0) {
      const pooled = await this.#ready.shift();
      // No refill here: creating an isolate blocks the host thread for about a
      // millisecond, which would land inside the run that just started. The
      // runtime calls refill() once its run is over.
      if (pooled !== undefined && !pooled.isolate.isDisposed) return pooled;
    }
    return prepareIsolate(memoryMb);
  }

  /** Tops the pool up in the background; called when a run has ended. */
  refill(): void {
    this.#scheduleRefill();
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
    const ready = this.#ready;
    this.#ready = [];
    for (const pending of await Promise.all(ready)) if (pending) disposePrepared(pending);
  }

  #scheduleRefill(): void {
    if (this.#refilling || this.#closed || this.#size === 0) return;
    this.#refilling = true;
    // Deferred, so the caller's own work (sending a result) goes first.
    setImmediate(() => this.#refillOne());
  }

  #refillOne(): void {
    const memoryMb = this.#memoryMb;
    if (this.#closed || memoryMb === undefined || this.#ready.length >= this.#size) {
      this.#refilling = false;
      return;
    }
    const pending = prepareIsolate(memoryMb).then(
      (prepared) => {
        if (this.#closed || this.#memoryMb !== memoryMb) {
          disposePrepared(prepared);
          return undefined;
        }
        return prepared;
      },
      () => undefined,
    );
    this.#ready.push(pending);
    void pending.then(() => setImmediate(() => this.#refillOne()));
  }
}
