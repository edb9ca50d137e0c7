import { failure, type Outcome, runInputs, runToResult } from "../shared/run-result.ts";
import type { ExecutionResult, RunOptions, SandboxPoolStats, SandboxRuntime } from "../types.ts";
import { AGENT_SCRIPT_NAME, AgentPositions, wrapAgentCode } from "./agent-stack.ts";
import { createHostFunctions } from "./host-functions.ts";
import { DEFAULT_POOL_SIZE, disposePrepared, IsolatePool } from "./isolate-pool.ts";
import type { LogCollector } from "./log-collector.ts";
import { type EndReason, fromFailure, fromReport } from "./run-outcome.ts";

/** Memory limit the pool prepares isolates for before the first run says otherwise. */
export const DEFAULT_PREWARM_MEMORY_MB = 128;
/** setTimeout fires at once for delays above this, so longer limits are capped to it. */
const MAX_TIMER_MS = 2_147_483_647;

export interface IsolateRuntimeOptions {
  /** Isolates prepared ahead of time (each serves one execution); 0 disables the pool. */
  poolSize?: number;
  /** Memory limit of the isolates prepared before the first run. */
  prewarmMemoryMb?: number;
}

/**
 * The `isolate` sandbox tier: each execution runs in its own fresh V8 isolate
 * (isolated-vm) with a memory limit, a wall-clock watchdog, and no globals
 * but the built-ins and the sandbox's own (shared/globals/catalog.ts).
 */
export class IsolateRuntime implements SandboxRuntime {
  readonly name = "isolate";
  readonly #pool: IsolatePool;
  /** Stops every run in progress; used by close(). */
  readonly #active = new Set<(reason: EndReason) => void>();
  #closed = false;

  constructor(options: IsolateRuntimeOptions = {}) {
    const size = options.poolSize ?? DEFAULT_POOL_SIZE;
    this.#pool = new IsolatePool({ size });
    if (size > 0) this.#pool.prewarm(options.prewarmMemoryMb ?? DEFAULT_PREWARM_MEMORY_MB);
  }

  run(options: RunOptions): Promise<ExecutionResult> {
    return runToResult(options, (logs) => this.#execute(options, logs));
  }

  poolStats(): SandboxPoolStats {
    return { warm: this.#pool.warm, running: this.#active.size };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const stop of this.#active) stop("closed");
    await this.#pool.close();
  }

  async #execute(options: RunOptions, logs: LogCollector): Promise<Outcome> {
    const start = runInputs(options, this.#closed);
    if ("error" in start) return start;
    const { toolsJson, contextJson, limitsJson } = start;

    const positions = new AgentPositions(options.sourceMap);
    const prepared = await this.#pool.acquire(options.memoryMb);
    if (this.#closed) {
      disposePrepared(prepared);
      return failure("runtime", "Error", "The sandbox runtime is closed");
    }
    const calls = new AbortController();
    const host = createHostFunctions({
      tools: options.tools,
      bridge: options.bridge,
      logs,
      signal: calls.signal,
      maxResultBytes: options.maxResultBytes,
    });
    let ended: EndReason | undefined;
    let settled = false;
    let halt: (reason: Error) => void = () => {};
    // An isolate V8 gave up on never answers, not even to dispose(): the run ends on the host's word.
    const halted = new Promise<never>((_, reject) => {
      halt = reject;
    });
    halted.catch(() => {});
    // Disposing the isolate is the only way to stop code that spins after an `await`.
    const stop = (reason: EndReason): void => {
      if (settled || ended !== undefined) return;
      ended = reason;
      calls.abort(new Error(`execution ended: ${reason}`));
      disposePrepared(prepared);
      halt(new Error(`execution ended: ${reason}`));
    };
    prepared.onCatastrophe = () => stop("memory");
    const onAbort = (): void => stop("aborted");
    this.#active.add(stop);
    const watchdog = setTimeout(stop, Math.min(Math.max(0, options.timeoutMs), MAX_TIMER_MS), "timeout");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    // An abort while the isolate was being acquired has fired already: the listener missed it.
    if (options.signal?.aborted) onAbort();
    try {
      const { context, start } = prepared;
      const agent = await Promise.race([
        context.eval(wrapAgentCode(options.code), { filename: AGENT_SCRIPT_NAME, reference: true }),
        halted,
      ]);
      const args = [
        agent.derefInto(),
        host.call,
        host.search,
        host.log,
        toolsJson,
        contextJson,
        limitsJson,
        host.op,
        host.random,
      ];
      const report = await Promise.race([
        start.apply(undefined, args, { result: { promise: true, copy: true } }),
        halted,
      ]);
      settled = true;
      return { ...fromReport(report, positions, options.maxOutputBytes), toolResultBytes: host.bytesIn() };
    } catch (error) {
      settled = true;
      return {
        error: fromFailure(error, ended, options.timeoutMs, positions),
        toolResultBytes: host.bytesIn(),
      };
    } finally {
      clearTimeout(watchdog);
      options.signal?.removeEventListener("abort", onAbort);
      this.#active.delete(stop);
      calls.abort(new Error("execution ended"));
      host.release();
      // Nothing of the agent's can act any more (calls and logs are refused); disposing
      // off the result's path saves a fraction of a millisecond.
      setImmediate(() => disposePrepared(prepared));
      this.#pool.refill();
    }
  }
}
