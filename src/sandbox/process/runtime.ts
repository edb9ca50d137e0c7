import { AgentPositions } from "../isolate/agent-stack.ts";
import type { LogCollector } from "../isolate/log-collector.ts";
import type { EndReason } from "../isolate/run-outcome.ts";
import { runInputs, runToResult } from "../shared/run-result.ts";
import type { ExecutionResult, RunOptions, SandboxPoolStats, SandboxRuntime } from "../types.ts";
import { sandboxCommand } from "./command.ts";
import { failure, fromCompileError, fromDone, fromExit, type Outcome } from "./outcome.ts";
import { DEFAULT_PROCESS_POOL_SIZE, ProcessPool } from "./process-pool.ts";
import { runInProcess } from "./run-in-process.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, SandboxProcess } from "./sandbox-process.ts";
import {
  checkProcessTier,
  type ProcessTierOptions,
  type ProcessTierSetup,
  type RunnerFiles,
  removeRunnerFiles,
  writeRunnerFiles,
} from "./setup.ts";

/** Memory limit the pool starts processes for before the first run says otherwise. */
export const DEFAULT_PREWARM_MEMORY_MB = 128;

export interface ProcessRuntimeOptions extends ProcessTierOptions {
  /** Sandbox processes started ahead of time (each serves one execution); 0 disables the pool. */
  poolSize?: number;
  /** Memory limit of the processes started before the first run. */
  prewarmMemoryMb?: number;
  /** Largest single message (result, log call, tool arguments) a sandbox may send. */
  maxMessageBytes?: number;
}

/**
 * The `process` sandbox tier: each execution runs in its own Deno process
 * with no permissions, inside bubblewrap (no network, no host files, user
 * `nobody`, no capabilities), under a memory rlimit and a V8 heap limit. It
 * talks to the host in JSON lines over stdin/stdout, and a timeout kills its
 * whole process group. Build it with `ProcessRuntime.create()`, which checks
 * that the tier works here and refuses otherwise.
 */
export class ProcessRuntime implements SandboxRuntime {
  readonly name = "process";
  readonly setup: ProcessTierSetup;
  readonly #files: RunnerFiles;
  readonly #pool: ProcessPool;
  /** Stops every run in progress; used by close(). */
  readonly #active = new Set<(reason: EndReason) => void>();
  #closed = false;

  /** Checks that Deno, bubblewrap and prlimit are there and a sandbox starts; throws a ProcessSandboxError otherwise. */
  static check(options: ProcessTierOptions = {}): Promise<ProcessTierSetup> {
    return checkProcessTier(options);
  }

  /** A runtime for this machine, after `check()` has passed. */
  static async create(options: ProcessRuntimeOptions = {}): Promise<ProcessRuntime> {
    return new ProcessRuntime(await ProcessRuntime.check(options), options);
  }

  /** Prefer `create()`; `setup` must come from `check()`. */
  constructor(setup: ProcessTierSetup, options: ProcessRuntimeOptions = {}) {
    this.setup = setup;
    const files = writeRunnerFiles();
    this.#files = files;
    const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const size = options.poolSize ?? DEFAULT_PROCESS_POOL_SIZE;
    this.#pool = new ProcessPool({
      size,
      start: (memoryMb) =>
        new SandboxProcess(
          sandboxCommand({ ...setup, script: files.script, denoDir: files.denoDir, memoryMb }),
          maxMessageBytes,
        ),
    });
    if (size > 0) this.#pool.prewarm(options.prewarmMemoryMb ?? DEFAULT_PREWARM_MEMORY_MB);
  }

  run(options: RunOptions): Promise<ExecutionResult> {
    return runToResult(options, (logs) => this.#execute(options, logs));
  }

  poolStats(): SandboxPoolStats {
    return { warm: this.#pool.warm, running: this.#active.size };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stop of this.#active) stop("closed");
    await this.#pool.close();
    removeRunnerFiles(this.#files);
  }

  async #execute(options: RunOptions, logs: LogCollector): Promise<Outcome> {
    const start = runInputs(options, this.#closed);
    if ("error" in start) return start;
    const child = await this.#pool.acquire(options.memoryMb);
    if (this.#closed) {
      child.kill();
      return failure("runtime", "Error", "The sandbox runtime is closed");
    }
    const positions = new AgentPositions(options.sourceMap);
    try {
      return await runInProcess({
        child,
        options,
        logs,
        inputs: start,
        active: this.#active,
        ending: (message) => {
          if (message.type === "done") return fromDone(message.report, positions, options.maxOutputBytes);
          if (message.type === "compileError")
            return { error: fromCompileError(message.name, message.message, options.code, positions) };
          return undefined;
        },
        exitError: (exit, ended) => fromExit(exit, ended, options.timeoutMs, positions),
      });
    } finally {
      this.#pool.refill();
    }
  }
}
