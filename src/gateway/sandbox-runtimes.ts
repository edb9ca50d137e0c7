import type { ToolscriptSettings } from "../config/settings.ts";
import type { PythonRuntime } from "../sandbox/python/runtime.ts";
import { checkPythonSyntax } from "../sandbox/python/syntax-check.ts";
import type { SandboxPoolStats, SandboxRuntime } from "../sandbox/types.ts";
import type { PythonSkillProblem } from "../skills/python-skill.ts";
import { createPythonRuntime, createRuntime } from "./runtime-factory.ts";

/**
 * The gateway's sandboxes: the configured tier for TypeScript and the
 * process tier for Python, each started on first need.
 */
export class SandboxRuntimes {
  readonly #settings: ToolscriptSettings;
  #runtime: SandboxRuntime | undefined;
  #runtimeStarting: Promise<SandboxRuntime> | undefined;
  #python: Promise<PythonRuntime> | undefined;
  /** Python's runtime once started (for its pool's metrics). */
  #pythonStarted: PythonRuntime | undefined;

  /** `runtime`: a tier to use instead of starting the configured one (tests, embedding). */
  constructor(settings: ToolscriptSettings, runtime?: SandboxRuntime) {
    this.#settings = settings;
    this.#runtime = runtime;
  }

  /** The sandbox tier, started on first need; a tier that cannot start fails loudly. */
  sandbox(): Promise<SandboxRuntime> {
    if (this.#runtime) return Promise.resolve(this.#runtime);
    this.#runtimeStarting ??= createRuntime(this.#settings.sandbox).then((runtime) => {
      this.#runtime = runtime;
      return runtime;
    });
    return this.#runtimeStarting;
  }

  /** Python's runtime, started on first need; one that cannot start is tried again by the next Python program. */
  python(): Promise<PythonRuntime> {
    if (this.#python === undefined) {
      const starting = createPythonRuntime(this.#settings.sandbox, this.#settings.storage.dir);
      this.#python = starting;
      starting.then(
        (python) => {
          this.#pythonStarted = python;
        },
        () => {
          if (this.#python === starting) this.#python = undefined;
        },
      );
    }
    return this.#python;
  }

  /** The tier a program of `language` runs in: Python always in the process tier. */
  tierOf(language: string | undefined): string {
    return language === "python" ? "process" : (this.#runtime?.name ?? this.#settings.sandbox.runtime);
  }

  /** Each started tier's pool: sandboxes warm and running. */
  pools(): Array<{ tier: string } & SandboxPoolStats> {
    const pools: Array<{ tier: string } & SandboxPoolStats> = [];
    for (const runtime of [this.#runtime, this.#pythonStarted]) {
      const stats = runtime?.poolStats?.();
      if (runtime && stats) pools.push({ tier: runtime.name, ...stats });
    }
    return pools;
  }

  /**
   * Python's parser on a Python skill before it is saved, in a sandboxed
   * interpreter. Where Python cannot run here, the library's own checks stand alone.
   */
  async checkPythonSkill(skill: { name: string; code: string }): Promise<PythonSkillProblem | undefined> {
    let runtime: PythonRuntime;
    try {
      runtime = await this.python();
    } catch {
      return undefined;
    }
    return checkPythonSyntax(runtime, skill);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.#runtime?.close(), this.#python?.then((python) => python.close())]);
  }
}
