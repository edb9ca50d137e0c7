import pg from "pg";
import { StoreError } from "../errors.ts";
import { asStoreError, isUnreachable } from "./unreachable.ts";
import { waitAtMost } from "./wait-at-most.ts";

export const APPLICATION_NAME = "toolscript";
export const DEFAULT_MAX_CONNECTIONS = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECTION_TIMEOUT_MS = 5_000;
/** pg's oid of int8 (bigint): epoch-ms timestamps, sizes, counts, ids. */
const INT8_OID = 20;

export interface PostgresPoolOptions {
  /** `postgres://user:password@host:port/database`. */
  url: string;
  maxConnections?: number | undefined;
  /** The server cancels a statement running longer. */
  statementTimeoutMs?: number | undefined;
  /** Connecting longer fails (`store.unreachable`). */
  connectionTimeoutMs?: number | undefined;
}

/** What a transaction's body queries through: its one connection. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
}

// Every bigint the store holds is an epoch ms, a size or an id: well inside 2^53.
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== "binary"
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * The store's connections: a pg.Pool whose failures to reach the server become
 * `store.unreachable` (naming host:port, never the password), and which
 * refuses (`store.closed`) once closed.
 */
export class PostgresPool implements Queryable {
  /** The URL without its password. */
  readonly location: string;
  /** host:port, for messages. */
  readonly server: string;
  readonly #config: pg.ClientConfig;
  readonly #pool: pg.Pool;
  readonly #connectionTimeoutMs: number;
  #closed = false;

  constructor(options: PostgresPoolOptions) {
    const url = parseUrl(options.url);
    this.server = `${url.hostname}:${url.port || "5432"}`;
    // The password may also come as a parameter (`?password=`), which pg honours.
    url.password = "";
    url.searchParams.delete("password");
    this.location = url.toString();
    const statementTimeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const connectionTimeout = options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS;
    this.#connectionTimeoutMs = connectionTimeout;
    this.#config = {
      connectionString: options.url,
      application_name: APPLICATION_NAME,
      statement_timeout: statementTimeout,
      // A server that vanished without closing the socket answers nothing: give up past the statement timeout.
      query_timeout: statementTimeout + connectionTimeout,
      connectionTimeoutMillis: connectionTimeout,
      keepAlive: true,
      types,
    };
    this.#pool = new pg.Pool({ ...this.#config, max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS });
    // An idle connection the server dropped: the pool discards it; the next query reconnects or reports.
    this.#pool.on("error", () => {});
    // A connection dropped while checked out between two queries (a transaction's) emits on the
    // client, where no listener would crash the process; the next query on it fails and reports.
    this.#pool.on("connect", (client) => client.on("error", () => {}));
  }

  /** Settings for a connection of its own (the change listener, migrations), named `name`. */
  clientConfig(name: string): pg.ClientConfig {
    return { ...this.#config, application_name: name, query_timeout: undefined };
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    this.#assertOpen();
    try {
      return await this.#pool.query<R>(text, values);
    } catch (error) {
      throw asStoreError(error, this.server);
    }
  }

  /**
   * Resolves when the server answers a trivial query within the connection
   * timeout (twice that at most, connecting included): what /ready asks, which
   * must not wait out the statement timeout when the server went silent.
   */
  async ping(): Promise<void> {
    this.#assertOpen();
    try {
      // query_timeout per query is read by pg's client, though @types/pg omits it from QueryConfig.
      await this.#pool.query({
        text: "SELECT 1",
        query_timeout: this.#connectionTimeoutMs,
      } as pg.QueryConfig);
    } catch (error) {
      throw asStoreError(error, this.server);
    }
  }

  /** Runs `body` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async transaction<T>(body: (tx: Queryable) => Promise<T>): Promise<T> {
    this.#assertOpen();
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw asStoreError(error, this.server);
    }
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const result = await body(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      if (isUnreachable(error)) broken = error as Error;
      else await client.query("ROLLBACK").catch((rollback: Error) => (broken = rollback));
      throw asStoreError(error, this.server);
    } finally {
      // A connection that failed is destroyed rather than handed to the next caller.
      client.release(broken);
    }
  }

  /** A connection of the pool for steps that need one session (advisory locks); release it. */
  async connect(): Promise<pg.PoolClient> {
    this.#assertOpen();
    try {
      return await this.#pool.connect();
    } catch (error) {
      throw asStoreError(error, this.server);
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Ends every connection, waiting for their sockets at most the connection timeout. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await waitAtMost(this.#pool.end(), this.#connectionTimeoutMs);
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreError("store.closed", `the store at ${this.location} is closed`);
  }
}

function parseUrl(text: string): URL {
  try {
    const url = new URL(text);
    if (url.protocol === "postgres:" || url.protocol === "postgresql:") return url;
  } catch {
    // Reported below, without echoing a URL that may hold a password.
  }
  throw new StoreError(
    "store.bad_url",
    "the PostgreSQL store URL must be postgres://user:password@host:port/database",
  );
}
