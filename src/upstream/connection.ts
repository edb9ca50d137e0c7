import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type Client,
  LOG_LEVEL_META_KEY,
} from "@modelcontextprotocol/client";
import type { ToolDefinition } from "../catalog/types.ts";
import { messageOf } from "../errors/message-of.ts";
import { SharedRateLimit } from "../limits/shared-rate-limit.ts";
import { traceUpstreamRequest, upstreamRequestOf } from "../ops/tracing/upstream-span.ts";
import { callError } from "./call-error.ts";
import { ConcurrencyLimiter } from "./concurrency.ts";
import { type OpenedClient, openClient } from "./connect.ts";
import { UpstreamError } from "./errors.ts";
import { clientCapabilities, registerForwarding } from "./forwarding.ts";
import { linkedController } from "./linked-abort.ts";
import { listAllTools } from "./list-tools.ts";
import { isLoginRequired, LoginGate } from "./login-gate.ts";
import { ResourceSubscriptions } from "./resource-subscriptions.ts";
import { RestartBudget } from "./restart-budget.ts";
import { describeRetry } from "./retry-text.ts";
import type { ProcessGroupStdioTransport } from "./stdio-transport.ts";
import type {
  LogLevel,
  UpstreamEvents,
  UpstreamOptions,
  UpstreamProgress,
  UpstreamServerConfig,
  UpstreamState,
  UpstreamStatus,
} from "./types.ts";

/** `_meta` entries carrying the trace context to the server (`traceparent`, `tracestate`). */
type TraceMeta = Record<string, string> | undefined;

/** Sends one request to the server's client, with the trace context for its `_meta`. */
type TracedSend<T> = (
  client: Client,
  request: { timeout: number; signal: AbortSignal },
  traceMeta?: TraceMeta,
) => Promise<T>;

export interface ConnectionEvents extends UpstreamEvents {
  onToolsChanged(server: string, tools: readonly ToolDefinition[]): void;
  onStatusChanged(status: UpstreamStatus): void;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** Progress the server reports for this call (the SDK sends a progress token only when this is set). */
  onProgress?: ((progress: UpstreamProgress) => void) | undefined;
  /**
   * 2026-07-28 servers read the client's capabilities from each request: what the
   * calling client can answer (sampling, elicitation, roots), sent instead of the
   * gateway's own so the server does not ask what nobody can answer. Ignored in 2025
   * (capabilities are fixed at initialize there).
   */
  clientCapabilities?: Record<string, unknown> | undefined;
}

/**
 * One upstream MCP server: connects, lists its tools, restarts it with
 * backoff when it dies, and fails calls fast while it is not ready.
 */
export class UpstreamConnection {
  readonly config: UpstreamServerConfig;
  readonly #options: UpstreamOptions;
  readonly #events: ConnectionEvents;
  readonly #limiter: ConcurrencyLimiter;
  /** `upstream.callsPerMinute`, shared by the replicas on a PostgreSQL store (key `upstream:<name>`). */
  readonly #rate: SharedRateLimit;
  #state: UpstreamState = "connecting";
  #opened: OpenedClient | undefined;
  #tools: readonly ToolDefinition[] = [];
  #error: string | undefined;
  #stderrTail: string | undefined;
  readonly #restart: RestartBudget;
  #lastClosedBecause: string | undefined;
  /** Calls waiting for the first connection attempt to end. */
  #waiters = new Set<() => void>();
  #connecting: AbortController | undefined;
  #refreshing: Promise<void> | undefined;
  readonly #subscriptions = new ResourceSubscriptions((error) => {
    if (this.#state === "ready") this.#error = error;
  });
  /** Least severe log level forwarded (and asked of servers that declare `logging`); undefined: all. */
  #logLevel: LogLevel | undefined;
  readonly #login: LoginGate;
  /** Re-arms the connect timeout of the attempt under way (paused while a login waits for a person). */
  #connectTimer: { pause(): void; resume(): void } | undefined;

  constructor(config: UpstreamServerConfig, options: UpstreamOptions, events: ConnectionEvents) {
    this.config = config;
    this.#options = options;
    this.#events = events;
    this.#limiter = new ConcurrencyLimiter(options.maxConcurrency);
    this.#rate = new SharedRateLimit(options.callsPerMinute, options.sharedRates);
    this.#restart = new RestartBudget(options.restart);
    if (config.disabled) this.#state = "disabled";
    this.#login = new LoginGate(config, options.authorize, options.clientRequests?.askToOpenUrl, (waiting) =>
      this.#onLoginPending(waiting),
    );
  }

  get name(): string {
    return this.config.name;
  }

  get tools(): readonly ToolDefinition[] {
    return this.#tools;
  }

  get state(): UpstreamState {
    return this.#state;
  }

  status(): UpstreamStatus {
    const info = this.#opened?.client.getServerVersion();
    const instructions = this.#opened?.client.getInstructions();
    const protocolVersion = this.#opened?.client.getNegotiatedProtocolVersion();
    return {
      server: this.config.name,
      state: this.#state,
      transport: this.#opened?.kind ?? (this.config.kind === "stdio" ? "stdio" : undefined),
      toolCount: this.#tools.length,
      restarts: this.#restart.restarts,
      ...(this.#restart.nextRetryAt !== undefined && {
        nextRetryAt: new Date(this.#restart.nextRetryAt).toISOString(),
      }),
      ...((this.#state === "restarting" || this.#state === "failed") && {
        attempt: this.#restart.failures,
        maxAttempts: this.#restart.maxRetries,
      }),
      ...(this.#error !== undefined && { error: this.#error }),
      ...(this.#stderrTail && { stderrTail: this.#stderrTail }),
      ...(this.#state === "needs_login" && { login: this.#login.login() }),
      ...(protocolVersion && { protocolVersion }),
      ...(info && { serverInfo: { name: info.name, version: info.version } }),
      ...(instructions && { instructions }),
    };
  }

  /** Connects once; on failure schedules restarts in the background. Never rejects. */
  async start(): Promise<void> {
    if (this.#state === "disabled" || this.#state === "closed") return;
    this.#restart.started();
    // A retry keeps its state ("restarting", "failed") so calls meanwhile say which attempt this is.
    if (this.#restart.failures === 0) this.#setState("connecting");
    const controller = new AbortController();
    this.#connecting = controller;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => controller.abort(new Error(`no answer within ${this.#options.connectTimeoutMs} ms`)),
        this.#options.connectTimeoutMs,
      );
    };
    arm();
    // A person approving in a browser takes the login timeout, not the connect timeout.
    this.#connectTimer = { pause: () => clearTimeout(timer), resume: arm };
    const attempt: { stdio?: ProcessGroupStdioTransport } = {};
    try {
      const opened = await openClient(
        this.config,
        (client) => this.#prepare(client),
        controller.signal,
        attempt,
        {
          maxMessageBytes: this.#options.maxMessageBytes,
          capabilities: clientCapabilities(this.#options.clientRequests),
          probeTimeoutMs: this.#options.probeTimeoutMs,
          authProvider: this.#login.transportProvider,
        },
      );
      if (this.#isClosed()) {
        await opened.transport.close();
        return;
      }
      this.#opened = opened;
      const tools = await listAllTools(opened.client, controller.signal);
      if (this.#isClosed()) return;
      this.#tools = tools;
      this.#error = undefined;
      this.#restart.ready();
      opened.transport.onclose = chain(opened.transport.onclose, () => this.#onTransportClosed(opened));
      this.#setState("ready");
      this.#events.onToolsChanged(this.name, tools);
      void this.#applyLogLevel(opened.client);
      this.#subscriptions.connected(opened.client, (uri) => this.#subscribe(uri, {}));
    } catch (error) {
      if (this.#isClosed()) return;
      const opened = this.#opened;
      this.#opened = undefined;
      await opened?.transport.close().catch(() => {});
      const exit = attempt.stdio?.exit;
      const why = controller.signal.aborted
        ? messageOf(controller.signal.reason)
        : exit && !isSpawnError(error)
          ? `process exited during start-up${describeExit(exit)}`
          : messageOf(error);
      this.#fail(why, attempt.stdio, isLoginRequired(error));
    } finally {
      clearTimeout(timer);
      this.#connecting = undefined;
      this.#connectTimer = undefined;
    }
  }

  #onLoginPending(pending: boolean): void {
    if (this.#isClosed()) return;
    if (pending) {
      this.#connectTimer?.pause();
      this.#setState("needs_login");
    } else {
      this.#connectTimer?.resume();
      if (this.#state === "needs_login" && this.#connecting) this.#setState("connecting");
    }
  }

  /** True while the first attempt, or a login a person is completing, may still make the server ready. */
  get starting(): boolean {
    return this.#starting();
  }

  #starting(): boolean {
    return this.#state === "connecting" || (this.#state === "needs_login" && this.#login.waiting);
  }

  /**
   * Resolves once the first connection attempt has ended (ready or not), at
   * once when it already has, or when `signal` aborts. The attempt itself is
   * bounded by the connect timeout.
   */
  settled(signal?: AbortSignal, options: { askClient?: boolean } = {}): Promise<void> {
    if (!this.#starting() || signal?.aborted) return Promise.resolve();
    // A program waiting on a login asks its client to open the URL (the client may be all the user sees).
    if (options.askClient) this.#login.askClientToLogIn(signal);
    return new Promise((resolve) => {
      const done = () => {
        this.#waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.#waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** Why calls cannot be sent now, in words for an error message; undefined when ready. */
  problem(): string | undefined {
    const state = this.#state;
    if (state === "ready") return undefined;
    const why = this.#error ? `: ${this.#error}` : "";
    const maxRetries = this.#restart.maxRetries;
    if (state === "connecting") return `still starting (no answer to initialize yet)`;
    if (state === "needs_login") return this.#login.problem();
    if (state === "restarting")
      return `restarting (attempt ${this.#restart.failures} of ${maxRetries})${why}`;
    if (state === "failed") return `failed${why}; ${describeRetry(this.#restart.nextRetryAt)}`;
    return state;
  }

  /** Calls a tool by its original name; returns the raw MCP result. */
  async callTool(tool: string, args: unknown, options: CallOptions = {}): Promise<CallToolResult> {
    return this.#send(tool, { tool }, options, (client, request, traceMeta) => {
      const onProgress = options.onProgress;
      const definition = this.#tools.find((candidate) => candidate.name === tool);
      // 2026-07-28 servers take the log level per request; 2025 ones keep what `logging/setLevel` set.
      const level = this.#logLevel;
      const meta = {
        // Trace context in either era: `_meta.traceparent` is MCP's convention (SEP-414).
        ...traceMeta,
        ...(client.getProtocolEra() === "modern" && {
          ...(level !== undefined && { [LOG_LEVEL_META_KEY]: level }),
          ...(options.clientCapabilities && { [CLIENT_CAPABILITIES_META_KEY]: options.clientCapabilities }),
        }),
      };
      const params = {
        name: tool,
        arguments: (args ?? {}) as Record<string, unknown>,
        ...(Object.keys(meta).length > 0 && { _meta: meta }),
      };
      return client.callTool(params, {
        ...request,
        ...(onProgress && { onprogress: (progress: UpstreamProgress) => onProgress(progress) }),
        // The catalog's definition lets the SDK mirror `x-mcp-header` parameters (SEP-2243)
        // and validate structured output without a cached `tools/list` of its own.
        ...(definition && { toolDefinition: definition as never }),
      }) as Promise<CallToolResult>;
    });
  }

  /** Fetches the tool list again (after `list_changed`, or on demand). */
  refreshTools(): Promise<void> {
    this.#refreshing ??= (async () => {
      try {
        const client = this.#opened?.client;
        if (!client || this.#state !== "ready") return;
        const tools = await listAllTools(client);
        this.#tools = tools;
        this.#events.onToolsChanged(this.name, tools);
        this.#events.onStatusChanged(this.status());
      } catch (error) {
        this.#error = `refreshing tools failed: ${messageOf(error)}`;
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  async close(): Promise<void> {
    if (this.#state === "closed") return;
    this.#login.close();
    this.#setState("closed");
    this.#restart.cancel();
    this.#connecting?.abort(new Error("gateway is shutting down"));
    const opened = this.#opened;
    this.#opened = undefined;
    this.#subscriptions.disconnected();
    await opened?.client.close().catch(() => {});
    await opened?.transport.close().catch(() => {});
  }

  /**
   * Sets the least severe log level forwarded from this server and, when it
   * declares `logging`, asks it to send nothing below it. Kept for reconnects.
   */
  async setLoggingLevel(level: LogLevel): Promise<void> {
    this.#logLevel = level;
    const client = this.#opened?.client;
    if (client && this.#state === "ready") await this.#applyLogLevel(client);
  }

  async #applyLogLevel(client: Client): Promise<void> {
    const level = this.#logLevel;
    if (level === undefined || !client.getServerCapabilities()?.logging) return;
    if (client.getProtocolEra() === "modern") return; // sent per request instead
    try {
      await client.setLoggingLevel(level);
    } catch (error) {
      // Messages below the level are still filtered here; the server just sends them for nothing.
      this.#error ??= `logging/setLevel failed: ${messageOf(error)}`;
    }
  }

  #prepare(client: Client): void {
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      void this.refreshTools();
    });
    registerForwarding(client, this.name, this.#events, this.#options.clientRequests, () => this.#logLevel);
  }

  #readyClient(): Client {
    const client = this.#opened?.client;
    if (this.#state === "ready" && client) return client;
    throw new UpstreamError(
      "upstream.unavailable",
      `server "${this.name}" is ${this.problem() ?? this.#state}`,
      {
        server: this.name,
        state: this.#state,
      },
    );
  }

  /** Why the last connection closed, when the gateway closed it (an oversized message). */
  #closedBecause(): string | undefined {
    return this.#opened?.stdio?.closedBecause ?? this.#lastClosedBecause;
  }

  #onTransportClosed(opened: OpenedClient): void {
    if (this.#opened !== opened || this.#state === "closed") return;
    this.#opened = undefined;
    this.#subscriptions.disconnected();
    const exit = opened.stdio?.exit;
    this.#lastClosedBecause = opened.stdio?.closedBecause;
    this.#restart.closed();
    this.#fail(this.#lastClosedBecause ?? `connection closed${exit ? describeExit(exit) : ""}`, opened.stdio);
  }

  #fail(message: string, stdio: ProcessGroupStdioTransport | undefined, loginRequired = false): void {
    this.#error = message;
    // A server that is down offers no tools: search and listings stop showing them until it is back.
    if (this.#tools.length > 0) {
      this.#tools = [];
      this.#events.onToolsChanged(this.name, []);
    }
    const tail = stdio?.stderr.text();
    if (tail) this.#stderrTail = tail;
    this.#restart.fail(() => void this.start());
    // Retries still run: a login made meanwhile by `toolscript auth login` in another process is picked up.
    this.#setState(loginRequired ? "needs_login" : this.#restart.exhausted ? "failed" : "restarting");
  }

  /** A method, not an inline check: the state changes across awaits. */
  #isClosed(): boolean {
    return this.#state === "closed";
  }

  #setState(state: UpstreamState): void {
    this.#state = state;
    if (!this.#starting()) {
      for (const wake of [...this.#waiters]) wake();
      this.#login.settled();
    }
    this.#events.onStatusChanged(this.status());
  }

  // Hook for features.ts (resources, prompts, completions): kept at the end of the class and small, so
  // the transport and SDK code above can change without touching the feature methods.

  /** What the server declared in `initialize`; undefined while it is not connected. */
  serverCapabilities(): ReturnType<Client["getServerCapabilities"]> {
    return this.#opened?.client.getServerCapabilities();
  }

  /**
   * Subscribes to a resource's updates (`onResourceUpdated`), kept across reconnects: on a
   * 2026-07-28 connection by reopening the listen stream with the URI in its filter.
   */
  async subscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    const client = this.#opened?.client;
    if (client === undefined || !this.#subscriptions.listens(client)) await this.#subscribe(uri, options);
    await this.#subscriptions.add(uri);
  }

  async unsubscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    const client = this.#opened?.client;
    await this.#subscriptions.remove(uri);
    if (client === undefined || !this.#subscriptions.listens(client)) {
      await this.request(`resources/unsubscribe ${uri}`, options, (c, request) =>
        c.unsubscribeResource({ uri }, request),
      );
    }
  }

  #subscribe(uri: string, options: CallOptions): Promise<unknown> {
    return this.request(`resources/subscribe ${uri}`, options, (client, request) =>
      client.subscribeResource({ uri }, request),
    );
  }

  /**
   * Sends one request other than a tool call (`label` names it in errors, e.g. `resources/read x`)
   * the way callTool sends one: after the first connection attempt, under this server's rate limit
   * and concurrency cap, with its timeout and the caller's signal; failures become UpstreamErrors.
   */
  request<T>(label: string, options: CallOptions, send: TracedSend<T>): Promise<T> {
    return this.#send(label, { request: label }, options, send);
  }

  /** In a CLIENT span (tracing); `send` puts the span's `traceMeta` in the request's `_meta`. */
  #send<T>(
    label: string,
    data: Record<string, string>,
    options: CallOptions,
    send: TracedSend<T>,
  ): Promise<T> {
    const transport = this.#opened?.kind;
    return traceUpstreamRequest(
      {
        ...upstreamRequestOf(label, data.tool),
        server: this.name,
        transport: transport === undefined ? undefined : transport === "stdio" ? "pipe" : "tcp",
      },
      (traceMeta) =>
        this.#sendNow(label, data, options, (client, request) => send(client, request, traceMeta)),
    );
  }

  async #sendNow<T>(
    label: string,
    data: Record<string, string>,
    options: CallOptions,
    send: (client: Client, request: { timeout: number; signal: AbortSignal }) => Promise<T>,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs ?? this.#options.callTimeoutMs;
    let admitted: boolean;
    try {
      admitted = await this.#rate.take(`upstream:${this.name}`, timeoutMs, options.signal);
    } catch (error) {
      throw new UpstreamError(
        "upstream.rate_limited",
        `${this.name}/${label}: ${messageOf(error)}`,
        { server: this.name, ...data, callsPerMinute: this.#options.callsPerMinute, reason: "store_failed" },
        { cause: error },
      );
    }
    if (!admitted) {
      throw new UpstreamError(
        "upstream.rate_limited",
        `${this.name}/${label}: over the limit of ${this.#options.callsPerMinute} calls per minute to "${this.name}"`,
        { server: this.name, ...data, callsPerMinute: this.#options.callsPerMinute },
      );
    }
    if (this.#starting()) await this.settled(options.signal, { askClient: true });
    return this.#limiter.run(async () => {
      const client = this.#readyClient();
      const call = linkedController(options.signal);
      try {
        return await this.#login.withStepUp(() => send(client, { timeout: timeoutMs, signal: call.signal }));
      } catch (error) {
        const closedBecause = this.#closedBecause();
        throw callError({
          server: this.name,
          what: label,
          error,
          timeoutMs,
          signal: options.signal,
          closedBecause,
        });
      } finally {
        call.unlink();
      }
    }, options.signal);
  }
}

function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  if (exit.signal) return ` (killed by ${exit.signal})`;
  return exit.code === null ? "" : ` (exit code ${exit.code})`;
}

/** `spawn` failures (ENOENT, EACCES) say more than "exited". */
function isSpawnError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === "string";
}

function chain(first: (() => void) | undefined, second: () => void): () => void {
  return () => {
    first?.();
    second();
  };
}
