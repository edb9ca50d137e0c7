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
    }
  | {
      kind: "http";
      name: string;
      url: string | URL;
      headers: Record<string, string>;
      transport: "auto" | "streamable-http" | "sse";
      disabled: boolean;
      timeoutMs?: number | undefined;
    };

export type UpstreamState = "connecting" | "ready" | "restarting" | "failed" | "disabled" | "closed";

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
  restarts: number;
  /** When the next restart attempt starts (ISO time), while one is scheduled. */
  nextRetryAt?: string;
  /** While restarting or failed: the restart attempt under way or next, and the budget before "failed". */
  attempt?: number;
  maxAttempts?: number;
  /** Server name/version from `initialize`. */
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
   * `maxRetries` quick restarts (delay doubling from `initialDelayMs`), then the
   * server is "failed" and is retried every `maxDelayMs`, for as long as the gateway runs.
   */
  restart: { maxRetries: number; initialDelayMs: number; maxDelayMs: number };
  /** Longest message read from a server; a longer answer fails its call with a clear error. */
  maxMessageBytes: number;
}

export const DEFAULT_UPSTREAM_OPTIONS: UpstreamOptions = {
  connectTimeoutMs: 30_000,
  callTimeoutMs: 60_000,
  maxConcurrency: 8,
  callsPerMinute: 0,
  restart: { maxRetries: 5, initialDelayMs: 500, maxDelayMs: 30_000 },
  maxMessageBytes: 10 * 1024 * 1024,
};
