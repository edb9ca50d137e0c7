import { EventEmitter } from "node:events";
import { messageOf } from "../../errors/message-of.ts";
import type {
  AuditStore,
  CacheStore,
  CredentialStore,
  RateLimitStore,
  SessionStore,
  SharedStore,
  SkillStore,
  StoreChange,
  VaultStore,
} from "../domains.ts";
import { StoreError } from "../errors.ts";
import { postgresAudit } from "./audit.ts";
import { postgresCaches } from "./caches.ts";
import { postgresCredentials } from "./credentials.ts";
import { migratePostgres } from "./migrate.ts";
import { ChangeListener, LISTENER_APPLICATION_NAME } from "./notifications.ts";
import { DEFAULT_CONNECTION_TIMEOUT_MS, PostgresPool, type PostgresPoolOptions } from "./pool.ts";
import { postgresRateLimits } from "./rate-limits.ts";
import { postgresSessions } from "./sessions-and-files.ts";
import { postgresSkills } from "./skills.ts";
import { asStoreError } from "./unreachable.ts";
import { postgresVaults } from "./vaults.ts";

const CHANGE = "change";

export interface OpenPostgresStoreOptions extends PostgresPoolOptions {
  /** How often the connection listening for changes is checked (default 30 s); see `ChangeListenerOptions`. */
  heartbeatMs?: number | undefined;
  /** Clock for timestamps, expiry and rate windows (tests). */
  now?: (() => number) | undefined;
  /** Told when a change listener throws (default: a process warning). */
  warn?: ((message: string) => void) | undefined;
}

/**
 * The PostgreSQL `SharedStore`: every replica's state in one database. Writes
 * that guard an invariant (quotas, claims, skill versions, rate windows) lock
 * what they check in the same transaction, so they hold across replicas;
 * skill changes reach every replica's listeners through LISTEN/NOTIFY.
 */
export class PostgresStore implements SharedStore {
  readonly engine = "postgres" as const;
  readonly location: string;
  readonly sessions: SessionStore;
  readonly skills: SkillStore;
  readonly vaults: VaultStore;
  readonly credentials: CredentialStore;
  readonly audit: AuditStore;
  readonly caches: CacheStore;
  readonly rateLimits: RateLimitStore;
  readonly #pool: PostgresPool;
  readonly #changes = new EventEmitter();
  readonly #listener: ChangeListener;
  readonly #warn: (message: string) => void;

  /** Use `openPostgresStore`, which migrates and starts listening. */
  constructor(
    pool: PostgresPool,
    options: Pick<OpenPostgresStoreOptions, "now" | "warn" | "heartbeatMs" | "connectionTimeoutMs"> = {},
  ) {
    const now = options.now ?? Date.now;
    this.#pool = pool;
    this.#warn = options.warn ?? ((message) => process.emitWarning(message, "ToolScriptWarning"));
    this.location = pool.location;
    this.sessions = postgresSessions(pool, now);
    this.skills = postgresSkills(pool, now);
    this.vaults = postgresVaults(pool, now);
    this.credentials = postgresCredentials(pool, now);
    this.audit = postgresAudit(pool);
    this.caches = postgresCaches(pool, now);
    this.rateLimits = postgresRateLimits(pool, now);
    this.#changes.setMaxListeners(0);
    this.#listener = new ChangeListener(
      pool.clientConfig(LISTENER_APPLICATION_NAME),
      pool.server,
      (change) => this.#tell(change),
      {
        heartbeatMs: options.heartbeatMs,
        heartbeatTimeoutMs: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
      },
    );
  }

  /**
   * Applies pending migrations (one replica at a time) and starts hearing
   * changes. Rejects with `store.unreachable` when the server does not answer,
   * `store.open_failed` when it refuses (a wrong password, a missing database).
   */
  async start(): Promise<void> {
    try {
      const client = await this.#pool.connect();
      try {
        await migratePostgres(client);
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      client.release();
      await this.#listener.start();
    } catch (error) {
      throw openError(asStoreError(error, this.#pool.server), this.location);
    }
  }

  ping(): Promise<void> {
    return this.#pool.ping();
  }

  onChange(listener: (change: StoreChange) => void): () => void {
    this.#changes.on(CHANGE, listener);
    return () => this.#changes.off(CHANGE, listener);
  }

  /** Stops listening and closes every connection. Idempotent. */
  async close(): Promise<void> {
    if (this.#pool.closed) return;
    this.#changes.removeAllListeners();
    await this.#listener.close();
    await this.#pool.close();
  }

  /** Each listener in isolation: one that throws does not stop the others. */
  #tell(change: StoreChange): void {
    for (const listener of this.#changes.listeners(CHANGE)) {
      try {
        (listener as (change: StoreChange) => void)(change);
      } catch (error) {
        this.#warn(`a store change listener failed: ${messageOf(error)}`);
      }
    }
  }
}

/** `error` as it is when a `StoreError`, else as `store.open_failed` at `location` (no password). */
function openError(error: unknown, location: string): unknown {
  if (error instanceof StoreError) return error;
  return new StoreError(
    "store.open_failed",
    `cannot open the PostgreSQL store at ${location}: ${messageOf(error)}`,
    { location },
    { cause: error },
  );
}

/**
 * Opens the PostgreSQL store at `options.url`: connects, migrates (safe when
 * replicas start together) and listens for changes. Rejects with
 * `store.unreachable` when the server does not answer.
 */
export async function openPostgresStore(options: OpenPostgresStoreOptions): Promise<PostgresStore> {
  const pool = new PostgresPool(options);
  const store = new PostgresStore(pool, options);
  try {
    await store.start();
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  return store;
}
