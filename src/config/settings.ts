import { resolve } from "node:path";
import { z } from "zod";
import { anomaliesSchema } from "./anomalies.ts";
import type { ResolveContext } from "./context.ts";
import { interpolatedString } from "./context.ts";
import {
  DEFAULT_HTTP_EXECUTIONS_PER_MINUTE,
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_MAX_SESSIONS_PER_CLIENT,
  DEFAULT_HTTP_PORT,
  DEFAULT_LLM_MAX_RETRIES,
  DEFAULT_LLM_MAX_TOKENS,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_MAX_CONCURRENT_EXECUTIONS,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_MAX_QUEUED_EXECUTIONS,
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_TOOL_CALLS,
  DEFAULT_OUTPUT_MAX_TOKENS,
  DEFAULT_OUTPUT_MAX_TOKENS_LIMIT,
  DEFAULT_POLICY_ALLOW,
  DEFAULT_POLICY_READ_ONLY,
  DEFAULT_PRIVACY_PII,
  DEFAULT_PYTHON_POOL_SIZE,
  DEFAULT_RESTART_INITIAL_DELAY_MS,
  DEFAULT_RESTART_MAX_DELAY_MS,
  DEFAULT_RESTART_MAX_RETRIES,
  DEFAULT_SANDBOX_MEMORY_MB,
  DEFAULT_SANDBOX_POOL_SIZE,
  DEFAULT_SANDBOX_RUNTIME,
  DEFAULT_SANDBOX_TIMEOUT_MS,
  DEFAULT_SANDBOX_TYPECHECK,
  DEFAULT_SOLVE_ANSWER_CACHE_TTL_HOURS,
  DEFAULT_SOLVE_GENERATED_TTL_DAYS,
  DEFAULT_SOLVE_REUSE_SIMILARITY,
  DEFAULT_STORAGE_DIR,
  DEFAULT_TYPECHECK_IDLE_SECONDS,
  DEFAULT_UPSTREAM_CALL_TIMEOUT_MS,
  DEFAULT_UPSTREAM_CALLS_PER_MINUTE,
  DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS,
  DEFAULT_UPSTREAM_MAX_ARGUMENT_BYTES,
  DEFAULT_UPSTREAM_MAX_CONCURRENCY,
  DEFAULT_UPSTREAM_MAX_MESSAGE_BYTES,
  MAX_SANDBOX_MEMORY_MB,
  MAX_SANDBOX_TIMEOUT_MS,
  MIN_SANDBOX_MEMORY_MB,
  MIN_SANDBOX_TIMEOUT_MS,
  SANDBOX_LEVEL_PRESETS,
} from "./defaults.ts";
import { passThroughSchema } from "./pass-through.ts";

export const SANDBOX_RUNTIMES = ["isolate", "process"] as const;
export type SandboxRuntimeName = (typeof SANDBOX_RUNTIMES)[number];

const int = (min: number, max: number) => z.int().min(min).max(max);
// A fresh array per parse: configs never share mutable defaults.
const globList = (fallback: readonly string[]) => z.array(z.string().min(1)).default(() => [...fallback]);

export const SANDBOX_LEVELS = ["development", "production", "hardened"] as const;
export type SandboxLevel = (typeof SANDBOX_LEVELS)[number];

/** Fills what `level` presets under the keys written beside it; an unknown level is left for the enum to report. */
function applySandboxLevel(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const level = (raw as { level?: unknown }).level;
  if (typeof level !== "string" || !Object.hasOwn(SANDBOX_LEVEL_PRESETS, level)) return raw;
  return { ...SANDBOX_LEVEL_PRESETS[level as SandboxLevel], ...raw };
}

const sandboxObjectSchema = z.strictObject({
  /** A preset of the keys below (tier, limits, type-checking); explicit keys override it. */
  level: z.enum(SANDBOX_LEVELS).optional(),
  /** Type-check TypeScript programs against the tools' declarations before they run. */
  typecheck: z.boolean().default(DEFAULT_SANDBOX_TYPECHECK),
  /** Seconds without a check after which the type checker's worker is stopped; 0 keeps it loaded. */
  typecheckIdleSeconds: int(0, 7 * 24 * 3600).default(DEFAULT_TYPECHECK_IDLE_SECONDS),
  runtime: z.enum(SANDBOX_RUNTIMES).default(DEFAULT_SANDBOX_RUNTIME),
  timeoutMs: int(MIN_SANDBOX_TIMEOUT_MS, MAX_SANDBOX_TIMEOUT_MS).default(DEFAULT_SANDBOX_TIMEOUT_MS),
  memoryMb: int(MIN_SANDBOX_MEMORY_MB, MAX_SANDBOX_MEMORY_MB).default(DEFAULT_SANDBOX_MEMORY_MB),
  maxToolCalls: int(1, 1_000_000).default(DEFAULT_MAX_TOOL_CALLS),
  maxLogBytes: int(1024, 64 * 1024 * 1024).default(DEFAULT_MAX_LOG_BYTES),
  /** Process tier only: run Deno inside bubblewrap. Turning it off must be explicit. */
  bubblewrap: z.boolean().default(true),
  /** Pre-warmed isolates kept ready; 0 creates one per execution. */
  poolSize: int(0, 64).default(DEFAULT_SANDBOX_POOL_SIZE),
  /** Bytes of tool results (JSON) that may enter one execution. */
  maxResultBytes: int(1024, 1024 * 1024 * 1024).default(DEFAULT_MAX_RESULT_BYTES),
  /** Bytes (JSON) of the value one execution may return. */
  maxOutputBytes: int(1024, 1024 * 1024 * 1024).default(DEFAULT_MAX_OUTPUT_BYTES),
  /** Executions running at once; beyond it they queue. */
  maxConcurrent: int(1, 1024).default(DEFAULT_MAX_CONCURRENT_EXECUTIONS),
  /** Executions waiting for a slot; beyond it execute_code answers "busy". */
  maxQueued: int(0, 100_000).default(DEFAULT_MAX_QUEUED_EXECUTIONS),
  /** Python programs (always the process tier, whatever `runtime` says). */
  python: z
    .strictObject({
      /** Interpreters restored ahead of time, each serving one execution; 0 restores one per execution. */
      pool: int(0, 16).default(DEFAULT_PYTHON_POOL_SIZE),
    })
    .prefault({}),
});

const sandboxSchema = z.preprocess(applySandboxLevel, sandboxObjectSchema);

const restartSchema = z
  .strictObject({
    maxRetries: int(0, 1000).default(DEFAULT_RESTART_MAX_RETRIES),
    initialDelayMs: int(0, 600_000).default(DEFAULT_RESTART_INITIAL_DELAY_MS),
    maxDelayMs: int(0, 3_600_000).default(DEFAULT_RESTART_MAX_DELAY_MS),
  })
  .superRefine((value, ctx) => {
    if (value.maxDelayMs < value.initialDelayMs) {
      ctx.addIssue({ code: "custom", path: ["maxDelayMs"], message: "must be >= initialDelayMs" });
    }
  });

const upstreamSchema = z.strictObject({
  callTimeoutMs: int(100, 3_600_000).default(DEFAULT_UPSTREAM_CALL_TIMEOUT_MS),
  connectTimeoutMs: int(100, 600_000).default(DEFAULT_UPSTREAM_CONNECT_TIMEOUT_MS),
  /** Concurrent calls in flight per upstream server. */
  maxConcurrency: int(1, 1024).default(DEFAULT_UPSTREAM_MAX_CONCURRENCY),
  /** Calls per minute per upstream server; 0 = unlimited. Calls over it wait for a slot. */
  callsPerMinute: int(0, 1_000_000).default(DEFAULT_UPSTREAM_CALLS_PER_MINUTE),
  restart: restartSchema.prefault({}),
  /**
   * Bytes (JSON) of one tool call's arguments; larger calls fail with LimitError before reaching the server.
   * At most 8 MiB: stdio servers built on the MCP SDK die on a message over 10 MiB.
   */
  maxArgumentBytes: int(1024, 8 * 1024 * 1024).default(DEFAULT_UPSTREAM_MAX_ARGUMENT_BYTES),
  /** Bytes of one message from a server; a larger answer fails its call (the server is not trusted to be small). */
  maxMessageBytes: int(64 * 1024, 1024 * 1024 * 1024).default(DEFAULT_UPSTREAM_MAX_MESSAGE_BYTES),
  /**
   * How long a stdio server may stay silent on the 2026-07-28 `server/discover` probe before it is
   * taken for a 2025-era server (absent: the upstream layer's default).
   */
  probeTimeoutMs: int(100, 600_000).optional(),
  /** How long an OAuth login may wait for a person to approve in the browser (absent: 5 minutes). */
  loginTimeoutMs: int(1000, 3_600_000).optional(),
});

const outputSchema = z
  .strictObject({
    /** Default token budget of one execution's output. */
    maxTokens: int(1, 1_000_000).default(DEFAULT_OUTPUT_MAX_TOKENS),
    /** Highest budget a caller may ask for per execution. */
    maxTokensLimit: int(1, 1_000_000).default(DEFAULT_OUTPUT_MAX_TOKENS_LIMIT),
    /** How an answer over budget is reduced; `auto` picks per value. */
    strategy: z.enum(["auto", "truncate", "sample", "summarize"]).default("auto"),
    /** Which tokenizer counts tokens: the legacy Claude one (default) or OpenAI's o200k. */
    tokenizer: z.enum(["claude-legacy", "o200k"]).default("claude-legacy"),
  })
  .superRefine((value, ctx) => {
    if (value.maxTokens > value.maxTokensLimit) {
      ctx.addIssue({
        code: "custom",
        path: ["maxTokens"],
        message: `must be <= maxTokensLimit (${value.maxTokensLimit})`,
      });
    }
  });

const PATTERN_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

const piiPatternSchema = z
  .strictObject({
    /** Label used in replacement tokens, e.g. `EMPLOYEE_ID`. */
    name: z
      .string()
      .regex(PATTERN_NAME, { error: "must start with a letter and hold only letters, digits and _" }),
    regex: z.string().min(1),
    flags: z.string().optional(),
  })
  .superRefine((pattern, ctx) => {
    try {
      new RegExp("", pattern.flags);
    } catch {
      ctx.addIssue({ code: "custom", path: ["flags"], message: "invalid regular expression flags" });
      return;
    }
    let compiled: RegExp;
    try {
      // Without g/y so `test` below is stateless.
      compiled = new RegExp(pattern.regex, (pattern.flags ?? "").replace(/[gy]/g, ""));
    } catch (error) {
      // V8 says "Invalid regular expression: /(/: Unterminated group"; keep the reason.
      const reason = (error instanceof Error ? error.message : String(error)).replace(
        /^Invalid regular expression: \/.*\/[a-z]*: /s,
        "",
      );
      ctx.addIssue({ code: "custom", path: ["regex"], message: `invalid regular expression: ${reason}` });
      return;
    }
    // A pattern matching "" would put a token between every character of every result.
    if (compiled.test("")) {
      ctx.addIssue({ code: "custom", path: ["regex"], message: "must not match the empty string" });
    }
  });

const privacySchema = z.strictObject({
  /** Replace personal data in tool results with tokens before the model sees them. */
  pii: z.boolean().default(DEFAULT_PRIVACY_PII),
  /** Extra patterns on top of the built-in detectors. */
  patterns: z
    .array(piiPatternSchema)
    .default(() => [])
    .superRefine((patterns, ctx) => {
      const seen = new Set<string>();
      patterns.forEach((pattern, index) => {
        if (seen.has(pattern.name)) {
          ctx.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `duplicate pattern name "${pattern.name}"`,
          });
        }
        seen.add(pattern.name);
      });
    }),
  /** `server/tool` globs whose arguments and results are left as they are. */
  exclude: z.array(z.string().min(1)).default(() => []),
  /** Region for phone numbers written without a country code (ISO 3166 code), or null for none. */
  phoneRegion: z
    .string()
    .regex(/^[A-Z]{2}$/, { error: "must be a two-letter country code such as US or DE" })
    .nullable()
    .default("US"),
});

const policySchema = z.strictObject({
  /** `server/tool` globs that may be called; everything by default. */
  allow: globList(DEFAULT_POLICY_ALLOW),
  /** `server/tool` globs that may never be called; wins over `allow` and `approve`. */
  deny: globList([]),
  /** `server/tool` globs that need the user's approval per call. */
  approve: globList([]),
  /** Only tools annotated `readOnlyHint` may be called. */
  readOnly: z.boolean().default(DEFAULT_POLICY_READ_ONLY),
  /** In read-only mode, what to do with tools that carry no annotations: ask by default. */
  unannotated: z.enum(["allow", "approve", "deny"]).default("approve"),
  /** Ask the user before every call of a tool annotated `destructiveHint`. */
  approveDestructive: z.boolean().default(false),
});

const auditSchema = z.strictObject({
  /** What the audit log also writes to stderr as JSON lines: nothing, refusals and limit hits, every execution, or every call too. */
  stderr: z.enum(["off", "violations", "executions", "calls"]).default("violations"),
  /** Warn on stderr when one session reaches this many violations (policy refusals, limit hits, escape attempts). */
  alertAfter: int(1, 1_000_000).default(20),
});

const solveSchema = z.strictObject({
  /**
   * Share (0..1) of a task's words a saved skill or tool must say it does (its name,
   * description, parameters) for solve_task to run it instead of generating one.
   */
  reuseSimilarity: z.number().min(0).max(1).default(DEFAULT_SOLVE_REUSE_SIMILARITY),
  /** Days a generated tool is reused for new tasks (and the task → tool cache kept). */
  generatedTtlDays: int(1, 3650).default(DEFAULT_SOLVE_GENERATED_TTL_DAYS),
  /** Hours a model's answer is kept for the same request (0: not kept). */
  answerCacheTtlHours: int(0, 24 * 3650).default(DEFAULT_SOLVE_ANSWER_CACHE_TTL_HOURS),
});

/** Where `storage.url` comes from when the config file has none. */
export const STORAGE_URL_ENV = "TOOLSCRIPT_STORAGE_URL";

function storageSchema(ctx: ResolveContext) {
  const fields = z.strictObject({
    /** Where sessions, skills, the PII vault and the audit log live; relative to the config file. */
    dir: z
      .string()
      .min(1)
      .default(DEFAULT_STORAGE_DIR)
      .pipe(interpolatedString(ctx))
      .transform((dir) => resolve(ctx.baseDir, dir)),
    /**
     * A PostgreSQL store shared by replicas (`postgres://user:password@host:port/db`,
     * usually `${VAR}`) instead of SQLite in `dir`; absent: `TOOLSCRIPT_STORAGE_URL`.
     */
    url: interpolatedString(ctx)
      .pipe(z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL"))
      .optional(),
  });
  // The variable stands in for an absent `url` before validation, so a bad value is reported at `url`.
  return z.preprocess((input) => {
    const fromEnv = ctx.env[STORAGE_URL_ENV];
    if (!isRecord(input) || input.url !== undefined || !fromEnv) return input;
    return { ...input, url: fromEnv };
  }, fields);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function httpServerSchema(ctx: ResolveContext) {
  return z.strictObject({
    host: z.string().min(1).default(DEFAULT_HTTP_HOST),
    port: int(0, 65_535).default(DEFAULT_HTTP_PORT),
    /** Bearer token clients must send; usually `${VAR}`. Empty after expansion means none. */
    token: interpolatedString(ctx)
      .optional()
      .transform((token) => (token === "" ? undefined : token)),
    /**
     * Several clients, each with its own token (`"<name>": "${VAR}"`): sessions, workspaces
     * and vaults belong to the client that created them; audit records name it.
     * `token` is one more client, named "default".
     */
    clients: z
      .record(
        z
          .string()
          .regex(
            /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
            "a client name is 1-64 letters, digits, '.', '_' or '-'",
          ),
        interpolatedString(ctx).pipe(z.string().min(1, "a client token cannot be empty")),
      )
      .default({}),
    /** Open MCP sessions per client; at the cap its least recently used idle session is closed. */
    maxSessionsPerClient: int(1, 10_000).default(DEFAULT_HTTP_MAX_SESSIONS_PER_CLIENT),
    /** Lets clients on 127.0.0.1/::1 skip the token. */
    allowUnauthenticatedLoopback: z.boolean().default(false),
    /** Accepted `Host` headers (DNS-rebinding protection); the server picks loopback names when absent. */
    allowedHosts: z.array(z.string().min(1)).optional(),
    /** Accepted `Origin` headers for browser clients. */
    allowedOrigins: z.array(z.string().min(1)).optional(),
    /** execute_code calls per minute per client token (or address); 0 = unlimited. */
    executionsPerMinute: int(0, 1_000_000).default(DEFAULT_HTTP_EXECUTIONS_PER_MINUTE),
  });
}

export const LLM_PROVIDERS = ["anthropic", "openai"] as const;
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];

function llmSchema(ctx: ResolveContext) {
  return z.strictObject({
    provider: z.enum(LLM_PROVIDERS),
    /** The provider's model name, e.g. `claude-sonnet-4-5` or `gpt-4.1`; a local server's own name with `baseUrl`. */
    model: z.string().min(1),
    /** Another endpoint: a proxy, or an OpenAI-compatible local server (Ollama, vLLM, LM Studio). */
    baseUrl: interpolatedString(ctx)
      .pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }))
      .optional(),
    /** Usually `${VAR}`; absent: `ANTHROPIC_API_KEY` / `OPENAI_API_KEY`. Empty after expansion means none. */
    apiKey: interpolatedString(ctx)
      .optional()
      .transform((key) => (key === "" ? undefined : key)),
    /** Default answer budget (tokens) of one request. */
    maxTokens: int(1, 1_000_000).default(DEFAULT_LLM_MAX_TOKENS),
    /** Retries of a request answered 429, 5xx or not at all, with exponential backoff (honouring `retry-after`). */
    maxRetries: int(0, 10).default(DEFAULT_LLM_MAX_RETRIES),
    /** Milliseconds one attempt may take. */
    timeoutMs: int(1000, 3_600_000).default(DEFAULT_LLM_TIMEOUT_MS),
    /** solve_task: a generated tool needs the user's approval before its first run. */
    approveGenerated: z.boolean().default(false),
    /** USD per million tokens, for cost summaries. */
    pricing: z.strictObject({ inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0) }).optional(),
  });
}

/** The `toolscript` section: strict, every field optional with a default. */
export function createSettingsSchema(ctx: ResolveContext) {
  return z.strictObject({
    sandbox: sandboxSchema.prefault({}),
    upstream: upstreamSchema.prefault({}),
    output: outputSchema.prefault({}),
    privacy: privacySchema.prefault({}),
    policy: policySchema.prefault({}),
    storage: storageSchema(ctx).prefault({}),
    audit: auditSchema.prefault({}),
    /** Anomaly detection: per-session baselines, alerts and responses (burst, denials, errors, exfiltration). */
    anomalies: anomaliesSchema.prefault({}),
    solve: solveSchema.prefault({}),
    server: z.strictObject({ http: httpServerSchema(ctx).prefault({}) }).prefault({}),
    /** Servers whose tools, prompts and resources the front end also offers directly, by name → `{ prefix }`. */
    passThrough: passThroughSchema,
    /** The model ToolScript itself talks to (solve_task, `toolscript agent`); absent: MCP sampling, where the client offers it. */
    llm: llmSchema(ctx).optional(),
  });
}

/** The resolved `toolscript` section: every default filled, `storage.dir` absolute. */
export type ToolscriptSettings = z.output<ReturnType<typeof createSettingsSchema>>;

/** The resolved `toolscript.llm` section (undefined in the settings when absent). */
export type LlmSettings = NonNullable<ToolscriptSettings["llm"]>;
