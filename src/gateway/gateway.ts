import { createExecutionBridge } from "../bridge/execution-bridge.ts";
import { ArgumentValidator } from "../bridge/validate.ts";
import { Catalog } from "../catalog/catalog.ts";
import { CompileCache } from "../compile/compile-cache.ts";
import { parseConfig } from "../config/parse.ts";
import type { Config } from "../config/schema.ts";
import { BusyError, ExecutionGate } from "../limits/execution-gate.ts";
import type { Approver } from "../policy/approval.ts";
import { Policy } from "../policy/policy.ts";
import { policyMiddleware } from "../policy/policy-middleware.ts";
import { IsolateRuntime } from "../sandbox/isolate/runtime.ts";
import type { ExecutionResult, SandboxRuntime } from "../sandbox/types.ts";
import { SecretRedactor } from "../secrets/redactor.ts";
import { UpstreamManager } from "../upstream/manager.ts";
import type { UpstreamStatus } from "../upstream/types.ts";
import { GatewayError } from "./errors.ts";
import { type Logger, silentLogger } from "./logger.ts";

export type CodeLanguage = "typescript" | "javascript" | "python";

export interface ExecuteRequest {
  code: string;
  language?: CodeLanguage | undefined;
  /** Wall-clock limit for this execution, capped by `sandbox.timeoutMs`. */
  timeoutMs?: number | undefined;
  /** JSON value the code sees as the global `context`. */
  context?: unknown;
  signal?: AbortSignal | undefined;
  /** Asks the user about calls the policy marks for approval; without it they are refused. */
  approver?: Approver | undefined;
}

export interface ExecuteResponse extends ExecutionResult {
  toolCalls: number;
  failedToolCalls: number;
  /** Bytes of tool results that entered the sandbox and stayed there unless returned. */
  toolResultBytes: number;
}

export interface GatewayOptions {
  /** A loaded config, or a plain `{ mcpServers, toolscript }` object as in toolscript.config.json. */
  config: Config | Record<string, unknown>;
  logger?: Logger;
  /** A sandbox tier to use instead of the configured one (tests, embedding). */
  runtime?: SandboxRuntime;
}

/**
 * The engine behind every front end: upstream connections, the catalog, and
 * sandboxed execution with tools bridged in. Holds no transport of its own.
 */
export class Gateway {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly upstream: UpstreamManager;
  readonly #logger: Logger;
  readonly #runtime: SandboxRuntime;
  readonly #validator = new ArgumentValidator();
  readonly #policy: Policy;
  readonly #gate: ExecutionGate;
  readonly #redactor: SecretRedactor;
  readonly #compiled = new CompileCache();
  #closed = false;

  constructor(options: GatewayOptions) {
    const config = isLoadedConfig(options.config)
      ? options.config
      : parseConfig(options.config, { baseDir: process.cwd(), env: process.env });
    this.config = config;
    this.#logger = options.logger ?? silentLogger;
    // Relative paths in `args` (e.g. "./data") resolve from the config file, wherever the gateway runs.
    const servers = config.servers.map((server) =>
      server.kind === "stdio" ? { ...server, cwd: server.cwd ?? config.baseDir } : server,
    );
    this.catalog = new Catalog(servers.map((server) => server.name));
    const { upstream, sandbox } = config.settings;
    this.upstream = new UpstreamManager(servers, upstream, {
      onToolsChanged: (server, tools) => this.catalog.setServerTools(server, tools),
      onStatusChanged: (status) => this.#logStatus(this.#redactor.redactValue(status)),
    });
    this.#policy = new Policy(config.settings.policy);
    this.#gate = new ExecutionGate(sandbox.maxConcurrent, sandbox.maxQueued);
    this.#redactor = SecretRedactor.fromConfig(config);
    this.#runtime = options.runtime ?? createRuntime(sandbox.runtime, sandbox.poolSize, sandbox.memoryMb);
  }

  /** Connects every upstream in parallel; resolves when each is ready or has failed once. */
  start(): Promise<UpstreamStatus[]> {
    return this.upstream.start();
  }

  /** Each upstream's state; error texts and stderr tails are redacted of configured secrets. */
  statuses(): UpstreamStatus[] {
    return this.upstream.statuses().map((status) => this.#redactor.redactValue(status));
  }

  /**
   * Runs one program. Never throws for the program's own failures, nor when
   * the gateway is busy: those come back as `error`.
   */
  async execute(input: string | ExecuteRequest): Promise<ExecuteResponse> {
    const request = typeof input === "string" ? { code: input } : input;
    if (this.#closed) throw new GatewayError("gateway.closed", "the gateway is closed");
    try {
      const response = await this.#gate.run(() => this.#execute(request), request.signal);
      return this.#redact(response);
    } catch (error) {
      if (!(error instanceof BusyError)) throw error;
      return {
        toolCalls: 0,
        failedToolCalls: 0,
        toolResultBytes: 0,
        logs: [],
        durationMs: 0,
        error: { kind: "runtime", name: error.name, message: error.message, code: error.code },
      };
    }
  }

  async #execute(request: ExecuteRequest): Promise<ExecuteResponse> {
    const started = performance.now();
    const language = request.language ?? "typescript";
    const empty = { toolCalls: 0, failedToolCalls: 0, toolResultBytes: 0, logs: [] };
    if (language === "python") {
      return {
        ...empty,
        durationMs: performance.now() - started,
        error: {
          kind: "runtime",
          name: "UnsupportedLanguage",
          message: 'language "python" needs the python sandbox tier, which this gateway does not run',
        },
      };
    }
    const compiled = await this.#compiled.compile(request.code, language);
    if (!compiled.ok) return { ...empty, durationMs: performance.now() - started, error: compiled.error };

    const { sandbox, upstream } = this.config.settings;
    const { bridge, stats } = createExecutionBridge({
      catalog: this.catalog,
      upstream: this.upstream,
      // Policy first: a refused call is never validated, counted against limits or sent.
      middleware: [
        policyMiddleware({ policy: this.#policy, approver: request.approver }),
        this.#validator.middleware(),
      ],
      maxToolCalls: sandbox.maxToolCalls,
      callTimeoutMs: upstream.callTimeoutMs,
    });
    const result = await this.#runtime.run({
      code: compiled.js,
      ...(compiled.sourceMap !== undefined && { sourceMap: compiled.sourceMap }),
      tools: this.catalog.namespace(),
      bridge,
      timeoutMs: Math.min(request.timeoutMs ?? sandbox.timeoutMs, sandbox.timeoutMs),
      memoryMb: sandbox.memoryMb,
      maxLogBytes: sandbox.maxLogBytes,
      context: request.context,
      ...(request.signal && { signal: request.signal }),
    });
    return {
      ...capOutput(result, sandbox.maxOutputBytes),
      durationMs: performance.now() - started,
      toolCalls: stats.calls,
      failedToolCalls: stats.failed,
      toolResultBytes: result.toolResultBytes ?? 0,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([this.upstream.close(), this.#runtime.close()]);
  }

  /** Nothing that leaves the gateway carries a configured secret. */
  #redact(response: ExecuteResponse): ExecuteResponse {
    if (this.#redactor.size === 0) return response;
    const { result, logs, error, ...rest } = response;
    return {
      ...rest,
      logs: this.#redactor.redactValue(logs),
      ...(result !== undefined && { result: this.#redactor.redactValue(result) }),
      ...(error !== undefined && { error: this.#redactor.redactValue(error) }),
    };
  }

  #logStatus(status: UpstreamStatus): void {
    if (this.#closed || status.state === "closed" || status.state === "connecting") return;
    if (status.state === "ready") {
      this.#logger.info(`${status.server}: ready, ${status.toolCount} tools (${status.transport})`);
    } else {
      const tail = status.stderrTail
        ? `\n  stderr: ${status.stderrTail.split("\n").slice(-3).join("\n  ")}`
        : "";
      this.#logger.warn(`${status.server}: ${status.state}${status.error ? `: ${status.error}` : ""}${tail}`);
    }
  }
}

/** Creates a gateway and connects its upstream servers (each ready or failed once). */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const gateway = new Gateway(options);
  await gateway.start();
  return gateway;
}

/** A returned value larger than the limit becomes a LimitError, never a silently cut value. */
function capOutput(result: ExecutionResult, maxBytes: number): ExecutionResult {
  if (result.result === undefined) return result;
  const bytes = Buffer.byteLength(JSON.stringify(result.result) ?? "");
  if (bytes <= maxBytes) return result;
  const { result: _dropped, ...rest } = result;
  return {
    ...rest,
    error: {
      kind: "runtime",
      name: "LimitError",
      code: "limit.output_bytes",
      message: `the returned value is ${bytes} bytes of JSON, over the limit of ${maxBytes} (sandbox.maxOutputBytes): return a smaller value, e.g. aggregate or slice it`,
    },
  };
}

function isLoadedConfig(config: GatewayOptions["config"]): config is Config {
  return "settings" in config && "servers" in config && "baseDir" in config;
}

function createRuntime(name: string, poolSize: number, memoryMb: number): SandboxRuntime {
  if (name === "isolate") return new IsolateRuntime({ poolSize, prewarmMemoryMb: memoryMb });
  // Never fall back to a weaker tier: refuse to start instead.
  throw new GatewayError(
    "gateway.runtime_unavailable",
    `sandbox.runtime "${name}" is not available in this build; use "isolate"`,
  );
}
