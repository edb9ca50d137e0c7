import { Worker } from "node:worker_threads";
import type { ExecutionError } from "../sandbox/types.ts";
import { checkSource } from "./type-check-source.ts";
import type { TypeCheckMessage, TypeCheckReply } from "./type-check-worker.ts";

export { MAX_REPORTED_DIAGNOSTICS } from "./type-check-service.ts";

/** The tools' declarations, and a number that changes whenever they do. */
export interface ToolDeclarations {
  version(): number;
  /** Path → `.d.ts` text, as `renderTree` lays it out (`index.d.ts` declares the global `tools`). */
  tree(): ReadonlyMap<string, string>;
}

export interface TypeCheckRequest {
  source: string;
  /** The declaration of a saved skill as the program's session sees it, for `import ... from "skills/<name>"`. */
  skillDeclaration: (name: string) => string | undefined;
}

export interface TypeCheckerOptions {
  /** How long one check may take once the worker has it; then the worker is stopped and replaced. */
  timeoutMs?: number;
  /** The first check of a worker also loads TypeScript and parses the lib (~0.5–4 s on a busy machine). */
  firstCheckTimeoutMs?: number;
  /** Heap of the worker: a language service over a large catalog needs a few hundred MB. */
  maxHeapMb?: number;
  /**
   * The worker (TypeScript and the parsed lib, ~60 MB resident) is stopped after this
   * long without a check, and started again by the next check or `prepare()`. 0 keeps it.
   */
  idleMs?: number;
}

export const DEFAULT_TYPECHECK_TIMEOUT_MS = 10_000;
export const DEFAULT_FIRST_TYPECHECK_TIMEOUT_MS = 30_000;
export const DEFAULT_TYPECHECK_HEAP_MB = 512;
const YOUNG_GENERATION_MB = 4;
/** Programs longer than this run unchecked: checking cost grows with the text. */
export const MAX_CHECKED_CHARS = 256 * 1024;
/** Results remembered by tools version, imported declarations and source: agents resend programs. */
const MAX_CACHED_RESULTS = 256;

const FROM_SOURCE = import.meta.url.endsWith(".ts");
// Next to this file: `.js` in dist, `.ts` when running from source (tests, bench) under tsx.
const WORKER_URL = new URL(`./type-check-worker${FROM_SOURCE ? ".ts" : ".js"}`, import.meta.url);

/** A worker does not inherit tsx's loader hooks: from source, it registers them before loading the entry. */
function startWorker(options: ConstructorParameters<typeof Worker>[1]): Worker {
  if (!FROM_SOURCE) return new Worker(WORKER_URL, options);
  const api = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const entry = JSON.stringify(WORKER_URL.href);
  const code = `import(${api}).then((tsx) => { tsx.register(); return import(${entry}); });`;
  return new Worker(code, { ...options, eval: true, execArgv: [] });
}

interface Pending {
  id: number;
  source: string;
  skills: Array<[string, string]>;
  resolve: (error: ExecutionError | undefined) => void;
}

interface Running {
  worker: Worker;
  /** Tools version the worker holds. */
  toolsVersion: number | undefined;
  /** True once the worker answered a check: TypeScript is loaded. */
  warm: boolean;
}

/**
 * Type-checks agents' programs against the tools' declarations, the sandbox
 * globals and the skills they import, before anything runs. The check runs
 * in a worker thread with a warm language service (TypeCheckService): the
 * gateway's thread never waits on it, and a program whose types never finish
 * or crash the compiler only costs that worker, stopped at its deadline.
 * Checks run one at a time, in order of arrival.
 */
export class ProgramTypeChecker {
  readonly #declarations: ToolDeclarations;
  readonly #timeoutMs: number;
  readonly #firstTimeoutMs: number;
  readonly #maxHeapMb: number;
  readonly #idleMs: number;
  #idleTimer: NodeJS.Timeout | undefined;
  readonly #results = new Map<string, ExecutionError | null>();
  readonly #queue: Pending[] = [];
  #running: Running | undefined;
  #inFlight: { pending: Pending; timer: NodeJS.Timeout } | undefined;
  #nextId = 1;
  #closed = false;

  constructor(declarations: ToolDeclarations, options: TypeCheckerOptions = {}) {
    this.#declarations = declarations;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TYPECHECK_TIMEOUT_MS;
    this.#firstTimeoutMs = options.firstCheckTimeoutMs ?? DEFAULT_FIRST_TYPECHECK_TIMEOUT_MS;
    this.#maxHeapMb = options.maxHeapMb ?? DEFAULT_TYPECHECK_HEAP_MB;
    this.#idleMs = options.idleMs ?? 0;
  }

  /** Whether a worker is running (TypeScript loaded or loading). */
  get loaded(): boolean {
    return this.#running !== undefined;
  }

  /** Undefined when the program type-checks (or is too long to check); else an error of kind `type`. */
  check(request: TypeCheckRequest): Promise<ExecutionError | undefined> {
    if (this.#closed || request.source.length > MAX_CHECKED_CHARS) return Promise.resolve(undefined);
    const skills: Array<[string, string]> = [];
    for (const name of checkSource(request.source).imports) {
      const declaration = request.skillDeclaration(name);
      // The import fails first at run time, before any other statement, with the store's own words.
      if (declaration === undefined) return Promise.resolve(undefined);
      skills.push([name, declaration]);
    }
    const key = [this.#declarations.version(), JSON.stringify(skills), request.source].join("\u0000");
    const cached = this.#results.get(key);
    if (cached !== undefined) return Promise.resolve(cached ?? undefined);
    return new Promise((resolve) => {
      this.#queue.push({
        id: this.#nextId++,
        source: request.source,
        skills,
        resolve: (error) => {
          // Failures of the checker itself (deadline, crash) are not remembered: the next try may pass.
          if (error?.code !== "typecheck.failed") this.#remember(key, error);
          resolve(error);
        },
      });
      this.#pump();
    });
  }

  /** Starts the worker and has it load TypeScript and parse the lib now, off this thread, so the first real check is warm. */
  prepare(): void {
    if (this.#closed || this.#running) return;
    this.#queue.push({ id: this.#nextId++, source: "", skills: [], resolve: () => {} });
    this.#pump();
  }

  /** Stops the worker; checks still waiting pass unchecked. */
  async close(): Promise<void> {
    this.#closed = true;
    const waiting = [...this.#queue.splice(0), ...(this.#inFlight ? [this.#inFlight.pending] : [])];
    if (this.#inFlight) clearTimeout(this.#inFlight.timer);
    this.#inFlight = undefined;
    for (const pending of waiting) pending.resolve(undefined);
    clearTimeout(this.#idleTimer);
    const running = this.#running;
    this.#running = undefined;
    await running?.worker.terminate();
  }

  #remember(key: string, error: ExecutionError | undefined): void {
    if (this.#results.size >= MAX_CACHED_RESULTS) {
      const oldest = this.#results.keys().next().value;
      if (oldest !== undefined) this.#results.delete(oldest);
    }
    this.#results.set(key, error ?? null);
  }

  #pump(): void {
    if (this.#inFlight || this.#closed) return;
    clearTimeout(this.#idleTimer);
    const pending = this.#queue.shift();
    if (!pending) {
      this.#releaseWhenIdle();
      return;
    }
    const running = this.#worker();
    const version = this.#declarations.version();
    if (running.toolsVersion !== version) {
      const tree = [...this.#declarations.tree()];
      running.worker.postMessage({ type: "tools", tree } satisfies TypeCheckMessage);
      running.toolsVersion = version;
    }
    const timeoutMs = running.warm ? this.#timeoutMs : this.#firstTimeoutMs;
    const timer = setTimeout(() => {
      this.#fail(`the type check did not finish within ${timeoutMs / 1000} s (types too complex?)`);
    }, timeoutMs);
    this.#inFlight = { pending, timer };
    running.worker.postMessage({
      type: "check",
      id: pending.id,
      source: pending.source,
      skills: pending.skills,
    } satisfies TypeCheckMessage);
  }

  #worker(): Running {
    if (this.#running) return this.#running;
    const worker = startWorker({
      // A small young generation: a check allocates little that lives, and the
      // default (3 × 16 MB semi-spaces) stays resident: ~20 MB less, same check times.
      resourceLimits: {
        maxOldGenerationSizeMb: this.#maxHeapMb,
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      },
      stdout: true,
      stderr: true,
    });
    // Never what keeps the gateway's process alive; stdout is the MCP stream, so the worker's is drained apart.
    worker.unref();
    worker.stdout.resume();
    worker.stderr.resume();
    const running: Running = { worker, toolsVersion: undefined, warm: false };
    worker.on("message", (reply: TypeCheckReply) => {
      const inFlight = this.#inFlight;
      if (this.#running !== running || !inFlight || inFlight.pending.id !== reply.id) return;
      clearTimeout(inFlight.timer);
      this.#inFlight = undefined;
      running.warm = true;
      inFlight.pending.resolve(
        reply.ok ? reply.error : checkerFailure(`the type checker failed: ${reply.failure}`),
      );
      this.#pump();
    });
    const lost = (why: string) => {
      if (this.#running === running) this.#fail(why);
    };
    worker.on("error", (error) => lost(`the type checker crashed: ${error.message}`));
    worker.on("exit", (code) => lost(`the type checker stopped (exit code ${code})`));
    this.#running = running;
    return running;
  }

  /** Stops the worker once `idleMs` pass with no check; the next check starts a new one. */
  #releaseWhenIdle(): void {
    const running = this.#running;
    if (this.#idleMs <= 0 || !running) return;
    this.#idleTimer = setTimeout(() => {
      if (this.#running !== running || this.#inFlight || this.#queue.length > 0) return;
      this.#running = undefined;
      void running.worker.terminate();
    }, this.#idleMs);
    this.#idleTimer.unref();
  }

  /** The check in flight fails; its worker is stopped, the next check starts a new one. */
  #fail(why: string): void {
    const inFlight = this.#inFlight;
    const running = this.#running;
    this.#inFlight = undefined;
    this.#running = undefined;
    if (inFlight) clearTimeout(inFlight.timer);
    void running?.worker.terminate();
    inFlight?.pending.resolve(checkerFailure(why));
    this.#pump();
  }
}

function checkerFailure(why: string): ExecutionError {
  return {
    kind: "type",
    name: "TypeCheckError",
    code: "typecheck.failed",
    message: `${why}; the program did not run (\`typecheck: false\` runs it unchecked)`,
  };
}
