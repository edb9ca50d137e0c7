import type { LogCollector } from "../isolate/log-collector.ts";
import type { EndReason } from "../isolate/run-outcome.ts";
import { ProcessPool } from "../process/process-pool.ts";
import { runInProcess } from "../process/run-in-process.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../process/sandbox-process.ts";
import {
  checkProcessTier,
  type ProcessTierOptions,
  type ProcessTierSetup,
  type RunnerFiles,
  removeRunnerFiles,
  writeRunnerFiles,
} from "../process/setup.ts";
import { failure, type Outcome, runInputs, runToResult } from "../shared/run-result.ts";
import type { ExecutionResult, RunOptions, SandboxPoolStats, SandboxRuntime } from "../types.ts";
import { PythonSandboxError } from "./errors.ts";
import { fromDriverOutcome, fromPythonExit } from "./outcome.ts";
import { type PyodideFiles, pyodideFiles } from "./pyodide-files.ts";
import { pyodideIndexURL, startPythonProcess } from "./python-process.ts";
import { pythonRunnerSource } from "./runner-source.ts";
import { obtainSnapshot } from "./snapshot-source.ts";

/** Ready interpreters kept by default (each ~240 MB resident). */
export const DEFAULT_PYTHON_POOL_SIZE = 2;
/** Time an interpreter gets to restore the snapshot and say `ready` (~0.5 s measured; more on a busy machine). */
const PYTHON_START_TIMEOUT_MS = 30_000;

export interface PythonRuntimeOptions extends ProcessTierOptions {
  /** The driver's .py files (python/driver-files.ts pythonDriverFiles()). */
  driverFiles: readonly { path: string; source: string }[];
  /** Interpreters restored ahead of time (each serves one execution); 0 starts one per execution. */
  poolSize?: number;
  /** Memory limit of the interpreters started before the first run. */
  prewarmMemoryMb?: number;
  /** Folder for the memory snapshot's cache file; undefined keeps it in memory only. */
  cacheDir?: string;
  maxMessageBytes?: number;
}

/** A Python run: the TypeScript run's options, and the skills the program may import. */
export interface PythonRunOptions extends RunOptions {
  /** Skill name -> Python source, importable as `from skills.<name> import f`. */
  skills?: Record<string, string>;
}

/**
 * Python programs in the process tier: each execution gets its own Pyodide
 * interpreter in its own Deno process (no permissions, bubblewrap, prlimit),
 * restored from a memory snapshot, used once and killed. The host side of the
 * bridge (HostCalls) and the JSON-lines protocol are the TypeScript process
 * tier's; only the program runs through the Python driver instead of the prelude.
 */
export class PythonRuntime implements SandboxRuntime {
  readonly name = "python";
  readonly setup: ProcessTierSetup;
  readonly #files: RunnerFiles;
  readonly #pool: ProcessPool;
  readonly #active = new Set<(reason: EndReason) => void>();
  #closed = false;

  /**
   * Checks the process tier, then makes or reads the snapshot; throws a
   * PythonSandboxError naming why Python cannot run here.
   */
  static async create(options: PythonRuntimeOptions): Promise<PythonRuntime> {
    let setup: ProcessTierSetup;
    try {
      setup = await checkProcessTier(options);
    } catch (cause) {
      throw new PythonSandboxError(
        "python.process_tier_unavailable",
        `Python programs run only in the process sandbox tier (Deno without permissions in bubblewrap), which cannot run here: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    }
    const pyodide = pyodideFiles();
    const files = writeRunnerFiles(pythonRunnerSource(pyodideIndexURL(setup, pyodide)));
    try {
      const snapshot = await obtainSnapshot({
        setup,
        script: files.script,
        denoDir: files.denoDir,
        pyodide,
        driver: options.driverFiles,
        cacheDir: options.cacheDir,
      });
      return new PythonRuntime(setup, files, pyodide, snapshot, options);
    } catch (error) {
      removeRunnerFiles(files);
      throw error;
    }
  }

  private constructor(
    setup: ProcessTierSetup,
    files: RunnerFiles,
    pyodide: PyodideFiles,
    snapshot: Buffer,
    options: PythonRuntimeOptions,
  ) {
    this.setup = setup;
    this.#files = files;
    const size = options.poolSize ?? DEFAULT_PYTHON_POOL_SIZE;
    const driver = options.driverFiles;
    this.#pool = new ProcessPool({
      size,
      startTimeoutMs: PYTHON_START_TIMEOUT_MS,
      start: (memoryMb) =>
        startPythonProcess({
          setup,
          script: files.script,
          denoDir: files.denoDir,
          pyodide,
          driver,
          snapshot,
          memoryMb,
          maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
        }),
    });
    if (size > 0 && options.prewarmMemoryMb !== undefined) this.#pool.prewarm(options.prewarmMemoryMb);
  }

  run(options: PythonRunOptions): Promise<ExecutionResult> {
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

  async #execute(options: PythonRunOptions, logs: LogCollector): Promise<Outcome> {
    const start = runInputs(options, this.#closed);
    if ("error" in start) return start;
    const child = await this.#pool.acquire(options.memoryMb);
    if (this.#closed) {
      child.kill();
      return failure("runtime", "Error", "The sandbox runtime is closed");
    }
    try {
      return await runInProcess({
        child,
        options,
        logs,
        inputs: start,
        ...(options.skills !== undefined && { runExtras: { skillsJson: JSON.stringify(options.skills) } }),
        active: this.#active,
        // `done`, `compileError`, `snapshot` are the TypeScript runner's words: from here only agent code could forge them.
        ending: (message) => (message.type === "outcome" ? fromDriverOutcome(message.json) : undefined),
        exitError: (exit, ended) => fromPythonExit(exit, ended, options.timeoutMs),
      });
    } finally {
      this.#pool.refill();
    }
  }
}
