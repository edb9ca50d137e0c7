import type { CallToolResult } from "@modelcontextprotocol/client";
import type { ToolDefinition } from "../catalog/types.ts";
import { type CallOptions, UpstreamConnection } from "./connection.ts";
import { UpstreamError } from "./errors.ts";
import {
  DEFAULT_UPSTREAM_OPTIONS,
  type LogLevel,
  type UpstreamEvents,
  type UpstreamOptions,
  type UpstreamServerConfig,
  type UpstreamStatus,
} from "./types.ts";

export interface UpstreamManagerEvents extends UpstreamEvents {
  /** A server's tool list changed (connected, reconnected, `list_changed`). */
  onToolsChanged?(server: string, tools: readonly ToolDefinition[]): void;
  onStatusChanged?(status: UpstreamStatus): void;
}

/**
 * All upstream servers of one gateway. Starts them in parallel; one that
 * fails or hangs never blocks the others.
 */
export class UpstreamManager {
  readonly #connections = new Map<string, UpstreamConnection>();
  readonly #events: UpstreamManagerEvents;

  constructor(
    servers: readonly UpstreamServerConfig[],
    options: Partial<UpstreamOptions> = {},
    events: UpstreamManagerEvents = {},
  ) {
    this.#events = events;
    const merged = { ...DEFAULT_UPSTREAM_OPTIONS, ...options };
    for (const config of servers) {
      this.#connections.set(
        config.name,
        new UpstreamConnection(config, merged, {
          onToolsChanged: (server, tools) => this.#events.onToolsChanged?.(server, tools),
          onStatusChanged: (status) => this.#events.onStatusChanged?.(status),
          onLog: (server, params) => this.#events.onLog?.(server, params),
          onListChanged: (server, kind) => this.#events.onListChanged?.(server, kind),
          onResourceUpdated: (server, uri) => this.#events.onResourceUpdated?.(server, uri),
        }),
      );
    }
  }

  /** Resolves when every server has connected or failed its first attempt. */
  async start(): Promise<UpstreamStatus[]> {
    await Promise.all([...this.#connections.values()].map((connection) => connection.start()));
    return this.statuses();
  }

  get serverNames(): string[] {
    return [...this.#connections.keys()];
  }

  statuses(): UpstreamStatus[] {
    return [...this.#connections.values()].map((connection) => connection.status());
  }

  /** The current tools of every server that has listed them. */
  tools(): Map<string, readonly ToolDefinition[]> {
    const result = new Map<string, readonly ToolDefinition[]>();
    for (const [name, connection] of this.#connections) result.set(name, connection.tools);
    return result;
  }

  connection(server: string): UpstreamConnection {
    const connection = this.#connections.get(server);
    if (!connection) {
      throw new UpstreamError("upstream.unknown_server", `no server named "${server}"`, { server });
    }
    return connection;
  }

  async callTool(
    server: string,
    tool: string,
    args: unknown,
    options?: CallOptions,
  ): Promise<CallToolResult> {
    return this.connection(server).callTool(tool, args, options);
  }

  /**
   * Forwards upstream log messages at `level` or above only, and asks every
   * server that declares `logging` (now, and each that connects later) to send
   * nothing below it.
   */
  async setLoggingLevel(level: LogLevel): Promise<void> {
    await Promise.all([...this.#connections.values()].map((connection) => connection.setLoggingLevel(level)));
  }

  async close(): Promise<void> {
    await Promise.all([...this.#connections.values()].map((connection) => connection.close()));
  }
}
