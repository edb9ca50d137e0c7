import type { SharedRates } from "../limits/shared-rate-limit.ts";

/** How to reach one upstream server; the resolved form of an `mcpServers` entry. */
export type UpstreamServerConfig =
  | {
      kind: "stdio";
      name: string;
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string | undefined;
      disabled: boolean;
      timeoutMs?: number | undefined;
      /** "legacy": skip the `server/discover` probe and speak a 2025 revision (default "auto"). */
      era?: UpstreamEra | undefined;
    }
  | {
      kind: "http";
      name: string;
      url: string | URL;
      headers: Record<string, string>;
      transport: "auto" | "streamable-http" | "sse";
      disabled: boolean;
      timeoutMs?: number | undefined;
      /** "legacy": skip the `server/discover` probe and speak a 2025 revision (default "auto"). */
      era?: UpstreamEra | undefined;
    };

/** "auto" probes for 2026-07-28 and falls back to 2025; "legacy" always uses the 2025 `initialize` handshake. */
export type UpstreamEra = "auto" | "legacy";

export type UpstreamState =
  | "connecting"
  /** An HTTP server that wants an OAuth login nobody has completed yet (`login` says how). */
  | "needs_login"
  | "ready"
  | "restarting"
  | "failed"
  | "disabled"
  | "closed";

/** A login waiting for a person: the URL to open and the shell command that does it. */
export interface UpstreamLogin {
  url?: string | undefined;
  command: string;
}

/**
 * OAuth for one HTTP server as its connection uses it (src/auth/server-authorization.ts):
 * the SDK auth provider its transport sends requests with, and the step-up after a
 * `403 insufficient_scope`.
 */
export interface UpstreamAuthorization {
  readonly transportProvider: import("@modelcontextprotocol/client").AuthProvider;
  /** Set while a login waits for a person. */
  readonly pending: { url: string; command: string } | undefined;
  onPendingChange: ((pending: { url: string; command: string } | undefined) => void) | undefined;
  stepUp(scope: string | undefined, resourceMetadataUrl: URL | undefined): Promise<void>;
  /** Ends a login waiting for a person. */
  close(): void;
}

/** What `toolscript serve` and `tools list` show for each server. */
export interface UpstreamStatus {
  server: string;
  state: UpstreamState;
  transport: "stdio" | "streamable-http" | "sse" | undefined;
  toolCount: number;
  /** Why the server is not ready, when it is not. */
  error?: string;
  /** Last lines the server wrote to stderr (stdio only). */
  stderrTail?: string;
  /** While `needs_login`: how to log in. */
  login?: UpstreamLogin;
  restarts: number;
  /** When the next restart attempt starts (ISO time), while one is scheduled. */
  nextRetryAt?: string;
  /** While restarting or failed: the restart attempt under way or next, and the budget before "failed". */
  attempt?: number;
  maxAttempts?: number;
  /** The protocol revision negotiated with the server (2026-07-28, or a 2025 one). */
  protocolVersion?: string;
  /** Server name/version from `initialize` (or `server/discover`). */
  serverInfo?: { name: string; version: string };
  /** Server's `instructions` from `initialize`, if any. */
  instructions?: string;
}

export interface UpstreamOptions {
  connectTimeoutMs: number;
  callTimeoutMs: number;
  maxConcurrency: number;
  /** Calls per minute to this server; 0 = unlimited. Calls over it wait, within their timeout. */
  callsPerMinute: number;
  /**
   * The store's rate windows when replicas share it (PostgreSQL): `callsPerMinute` then
   * holds across them. Absent, or giving undefined (no store yet, SQLite): each process counts its own.
   */
  sharedRates?: SharedRates | undefined;
  /**
   * `maxRetries` quick restarts (delay doubling from `initialDelayMs`), then the
   * server is "failed" and is retried every `maxDelayMs`, for as long as the gateway runs.
   */
  restart: { maxRetries: number; initialDelayMs: number; maxDelayMs: number };
  /** Longest message read from a server; a longer answer fails its call with a clear error. */
  maxMessageBytes: number;
  /** How long a stdio server may stay silent on the `server/discover` probe before it is taken for a 2025-era server. */
  probeTimeoutMs?: number | undefined;
  /**
   * Answers to the requests upstream servers send the gateway's client. Each
   * capability is declared to upstreams only when its hook is present.
   */
  clientRequests?: ClientRequestHooks | undefined;
  /** OAuth for an HTTP server; undefined: requests go with the configured headers only. */
  authorize?:
    | ((config: UpstreamServerConfig & { kind: "http" }) => UpstreamAuthorization | undefined)
    | undefined;
}

/** A `notifications/progress` of one call, as the server sent it. */
export interface UpstreamProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** MCP log levels, least severe first. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/**
 * Server→client requests, answered on the gateway's behalf (typically by
 * forwarding to the MCP client in front). `params` is the request's params as
 * received; the answer must be the MCP result (`CreateMessageResult`,
 * `ElicitResult`, `ListRootsResult`). `signal` aborts when the upstream
 * cancels or the connection closes. A hook that throws makes the upstream get
 * a JSON-RPC error naming the server and the message (throw
 * `ClientCannotAnswer` when no client can answer: code -32601).
 * With 2026-07-28 servers the same hooks answer the input requests of an
 * `input_required` result; the SDK retries the call with their answers.
 */
export interface ClientRequestHooks {
  sample?(
    server: string,
    params: unknown,
    signal: AbortSignal,
    request?: ClientRequestInfo,
  ): Promise<unknown>;
  elicit?(
    server: string,
    params: unknown,
    signal: AbortSignal,
    request?: ClientRequestInfo,
  ): Promise<unknown>;
  listRoots?(server: string, signal: AbortSignal, request?: ClientRequestInfo): Promise<unknown>;
  /**
   * Asks the person behind the client whose call is waiting on `server` to open `url` (an OAuth
   * login the gateway needs): URL-mode elicitation. Absent where the gateway's own output
   * already reaches that person (the CLI prints and opens the URL itself).
   */
  askToOpenUrl?(server: string, url: string, message: string, signal: AbortSignal): Promise<void>;
}

/** What is known of one server→client request besides its params. */
export interface ClientRequestInfo {
  /**
   * With a 2026-07-28 server: the key of this input request in the server's
   * `input_required` result (a proxy asking its own client keeps it, so the
   * client sees the server's own keys).
   */
  inputKey?: string | undefined;
}

/** What upstreams say besides tool lists and status, for the front end to forward. */
export interface UpstreamEvents {
  /** A `notifications/message` at or above the level set with `setLoggingLevel` (all, when none is set). */
  onLog?(server: string, params: unknown): void;
  /** `notifications/prompts/list_changed` or `notifications/resources/list_changed`. */
  onListChanged?(server: string, kind: "prompts" | "resources"): void;
  /** `notifications/resources/updated` for a subscribed resource. */
  onResourceUpdated?(server: string, uri: string): void;
}

export const DEFAULT_UPSTREAM_OPTIONS: UpstreamOptions = {
  connectTimeoutMs: 30_000,
  callTimeoutMs: 60_000,
  maxConcurrency: 8,
  callsPerMinute: 0,
  restart: { maxRetries: 5, initialDelayMs: 500, maxDelayMs: 30_000 },
  maxMessageBytes: 10 * 1024 * 1024,
};
