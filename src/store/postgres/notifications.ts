import pg from "pg";
import type { StoreChange } from "../domains.ts";
import type { Queryable } from "./pool.ts";
import { asStoreError } from "./unreachable.ts";
import { waitAtMost } from "./wait-at-most.ts";

/** The channel every replica listens on. */
export const CHANGES_CHANNEL = "toolscript_changes";
/** The listening connection's application_name (tells it apart from the pool's in pg_stat_activity). */
export const LISTENER_APPLICATION_NAME = "toolscript changes";
const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;
/** How often the listening connection is checked by default (see `ChangeListenerOptions`). */
export const DEFAULT_HEARTBEAT_MS = 30_000;

export interface ChangeListenerOptions {
  /**
   * How often a `SELECT 1` checks the listening connection: one that went
   * silent (a network partition, no FIN) is otherwise noticed only by TCP
   * keepalive, after minutes to hours, while changes are missed unseen.
   */
  heartbeatMs?: number | undefined;
  /** How long the check may take before the connection counts as dropped. */
  heartbeatTimeoutMs: number;
}

/** Tells every replica of `change` when the transaction `tx` commits (not at all if it rolls back). */
export async function notifyChange(tx: Queryable, change: StoreChange): Promise<void> {
  await tx.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, JSON.stringify(change)]);
}

function parseChange(payload: string | undefined): StoreChange | undefined {
  try {
    const change = JSON.parse(payload ?? "") as Partial<{ domain: unknown; name: unknown; action: unknown }>;
    if (change.domain !== "skills" || typeof change.name !== "string") return undefined;
    if (change.action !== "saved" && change.action !== "removed") return undefined;
    return { domain: "skills", name: change.name, action: change.action };
  } catch {
    return undefined;
  }
}

/**
 * A connection of its own running `LISTEN toolscript_changes`: it hears the
 * changes of every replica, this one's included, and hands them to `tell`.
 * When the connection drops it reconnects with backoff (100 ms doubling to
 * 5 s) and then tells `{ domain: "skills", action: "resync" }`, since changes
 * made meanwhile were not heard. A heartbeat notices a connection gone silent.
 */
export class ChangeListener {
  readonly #config: pg.ClientConfig;
  readonly #server: string;
  readonly #tell: (change: StoreChange) => void;
  #client: pg.Client | undefined;
  readonly #heartbeatMs: number;
  readonly #heartbeatTimeoutMs: number;
  #timer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #backoffMs = MIN_BACKOFF_MS;
  #closed = false;

  constructor(
    config: pg.ClientConfig,
    server: string,
    tell: (change: StoreChange) => void,
    options: ChangeListenerOptions,
  ) {
    this.#config = config;
    this.#server = server;
    this.#tell = tell;
    this.#heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.#heartbeatTimeoutMs = options.heartbeatTimeoutMs;
  }

  /** Connects and listens; rejects (`store.unreachable`) when the first connection fails. */
  async start(): Promise<void> {
    this.#client = await this.#listen();
    this.#startHeartbeat();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearInterval(this.#heartbeat);
    const client = this.#client;
    this.#client = undefined;
    if (client) await waitAtMost(client.end(), this.#heartbeatTimeoutMs);
  }

  async #listen(): Promise<pg.Client> {
    const client = new pg.Client(this.#config);
    client.on("error", () => this.#dropped(client));
    client.on("end", () => this.#dropped(client));
    client.on("notification", (message) => {
      const change = message.channel === CHANGES_CHANNEL ? parseChange(message.payload) : undefined;
      if (change) this.#tell(change);
    });
    try {
      await client.connect();
      // Bounded: a reconnection through a network gone silent must fail, and be tried again.
      await client.query({
        text: `LISTEN ${CHANGES_CHANNEL}`,
        query_timeout: this.#heartbeatTimeoutMs,
      } as pg.QueryConfig);
      return client;
    } catch (error) {
      client.removeAllListeners();
      client.on("error", () => {});
      await waitAtMost(client.end(), this.#heartbeatTimeoutMs);
      throw asStoreError(error, this.#server);
    }
  }

  /** Checks the current connection every `heartbeatMs`; a check that fails or times out drops it. */
  #startHeartbeat(): void {
    clearInterval(this.#heartbeat);
    let checking = false;
    this.#heartbeat = setInterval(() => {
      const client = this.#client;
      if (checking || client === undefined) return;
      checking = true;
      // query_timeout per query is read by pg's client, though @types/pg omits it from QueryConfig.
      client
        .query({ text: "SELECT 1", query_timeout: this.#heartbeatTimeoutMs } as pg.QueryConfig)
        .catch(() => this.#dropped(client))
        .finally(() => {
          checking = false;
        });
    }, this.#heartbeatMs);
    // Checking alone does not keep the process alive.
    this.#heartbeat.unref();
  }

  #dropped(client: pg.Client): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = undefined;
    client.removeAllListeners();
    client.on("error", () => {});
    client.end().catch(() => {});
    this.#retry();
  }

  #retry(): void {
    const delay = this.#backoffMs;
    this.#backoffMs = Math.min(this.#backoffMs * 2, MAX_BACKOFF_MS);
    this.#timer = setTimeout(async () => {
      try {
        const client = await this.#listen();
        if (this.#closed) {
          await waitAtMost(client.end(), this.#heartbeatTimeoutMs);
          return;
        }
        this.#client = client;
        this.#backoffMs = MIN_BACKOFF_MS;
        this.#startHeartbeat();
        this.#tell({ domain: "skills", action: "resync" });
      } catch {
        if (!this.#closed) this.#retry();
      }
    }, delay);
    // Reconnecting alone does not keep the process alive.
    this.#timer.unref();
  }
}
