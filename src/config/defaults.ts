/**
 * Every setting of the `toolscript` config section has a safe default here, so a
 * config file may omit any of them (or the whole section).
 */

/** File looked up in the working directory when no `--config` path is given. */
export const DEFAULT_CONFIG_FILE = "toolscript.config.json";

export const DEFAULT_SANDBOX_RUNTIME = "isolate";
export const DEFAULT_SANDBOX_TIMEOUT_MS = 30_000;
export const MIN_SANDBOX_TIMEOUT_MS = 100;
export const MAX_SANDBOX_TIMEOUT_MS = 600_000;
export const DEFAULT_SANDBOX_MEMORY_MB = 128;
export const MIN_SANDBOX_MEMORY_MB = 8;
export const MAX_SANDBOX_MEMORY_MB = 4096;
export const DEFAULT_MAX_TOOL_CALLS = 1000;
export const DEFAULT_MAX_LOG_BYTES = 65_536;
/** Bytes of tool results (as JSON) that may enter one execution's sandbox. */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024 * 1024;
/** Bytes (as JSON) of the value one execution may return. */
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Executions running at once in one gateway; more wait in a bounded queue. */
export const DEFAULT_MAX_CONCURRENT_EXECUTIONS = 8;
export const DEFAULT_MAX_QUEUED_EXECUTIONS = 64;
/** Calls per minute to one upstream server; 0 means no limit. */
export const DEFAULT_UPSTREAM_CALLS_PER_MINUTE = 0;
/** Executions per minute per HTTP client token (or address); 0 means no limit. */
export const DEFAULT_HTTP_EXECUTIONS_PER_MINUTE = 600;
export const DEFAULT_SANDBOX_POOL_SIZE = 2;
/** Python interpreters kept ready (restored from the memory snapshot, ~240 MB resident each). */
export const DEFAULT_PYTHON_POOL_SIZE = 2;
/** Type-check programs before they run (`npm run bench -- execute`: warm p50 well under 50 ms). */
export const DEFAULT_SANDBOX_TYPECHECK = true;
/**
 * Seconds the type checker (TypeScript, ~60 MB resident) stays loaded without a
 * check: longer than an agent's pause between executions, short enough that an
 * idle gateway gives the memory back. A search loads it again ahead of the program.
 */
export const DEFAULT_TYPECHECK_IDLE_SECONDS = 120;

/**
 * solve_task runs a saved skill or tool that says it does this share of a task's
 * words (src/solve/task-similarity.ts); below it, a model writes a new tool. A task
 * of up to six content words must then be covered whole: one word is often what
 * sets two tasks apart ("…then subtract one" / "…then add one hundred").
 */
export const DEFAULT_SOLVE_REUSE_SIMILARITY = 0.85;
export const DEFAULT_SOLVE_GENERATED_TTL_DAYS = 30;
export const DEFAULT_SOLVE_ANSWER_CACHE_TTL_HOURS = 24 * 7;

/**
 * `toolscript.sandbox.level`: the sandbox settings an operator means by one word.
 * Keys written next to `level` win over its preset.
 */
export const SANDBOX_LEVEL_PRESETS = {
  /** Room to experiment: the fast tier, generous limits. */
  development: {
    runtime: "isolate",
    timeoutMs: 120_000,
    memoryMb: 512,
    maxToolCalls: 10_000,
    typecheck: true,
  },
  /** The defaults, spelled out. */
  production: { runtime: "isolate", timeoutMs: 30_000, memoryMb: 128, maxToolCalls: 1000, typecheck: true },
  /** A separate process in bubblewrap, tight limits. */
  hardened: {
    runtime: "process",
    bubblewrap: true,
    timeoutMs: 10_000,
    memoryMb: 64,
    maxToolCalls: 100,
    maxResultBytes: 16 * 1024 * 1024,
    typecheck: true,
  },
} as const;

export const DEFAULT_UPSTREAM_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_UPSTREAM_MAX_CONCURRENCY = 8;
export const DEFAULT_RESTART_MAX_RETRIES = 5;
export const DEFAULT_RESTART_INITIAL_DELAY_MS = 500;
export const DEFAULT_RESTART_MAX_DELAY_MS = 30_000;
/** Bytes (JSON) of one tool call's arguments; far below the 10 MiB an MCP message may carry. */
export const DEFAULT_UPSTREAM_MAX_ARGUMENT_BYTES = 1024 * 1024;
/** Bytes of one message read from an upstream server (the MCP SDK's own stdio bound). */
export const DEFAULT_UPSTREAM_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export const DEFAULT_OUTPUT_MAX_TOKENS = 2000;
export const DEFAULT_OUTPUT_MAX_TOKENS_LIMIT = 20_000;

export const DEFAULT_PRIVACY_PII = true;

/** Policy globs match `server/tool`; by default every tool may be called. */
export const DEFAULT_POLICY_ALLOW: readonly string[] = ["*/*"];
export const DEFAULT_POLICY_READ_ONLY = false;

export const DEFAULT_STORAGE_DIR = ".toolscript";

/** Loopback only by default: exposing the gateway on a network is an explicit choice. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";
/** Open MCP sessions per HTTP client (the SDK client's close() leaves its session open until idle expiry). */
export const DEFAULT_HTTP_MAX_SESSIONS_PER_CLIENT = 64;
export const DEFAULT_HTTP_PORT = 7777;

/**
 * Per-server `timeout` is written in seconds by Cline / Roo Code (max 3600) and in
 * milliseconds by Gemini CLI; values up to this bound are read as seconds.
 */
export const MAX_TIMEOUT_SECONDS = 3600;

/** `toolscript.llm`: answer budget per model request, SDK retries on 429/5xx, per-attempt timeout. */
export const DEFAULT_LLM_MAX_TOKENS = 4096;
export const DEFAULT_LLM_MAX_RETRIES = 3;
export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
