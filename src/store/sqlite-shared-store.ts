import { EventEmitter } from "node:events";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { messageOf } from "../errors/message-of.ts";
import { AuditJournalFile } from "./audit-journal.ts";
import { AUDIT_JOURNAL_DIR } from "./audit-journal-format.ts";
import { recoverAuditJournals } from "./audit-journal-recovery.ts";
import { CacheEntries } from "./cache-entries.ts";
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
} from "./domains.ts";
import { StoreError } from "./errors.ts";
import { migrate } from "./migrate.ts";
import { type Durability, MEMORY_LOCATION, openDatabase } from "./open-database.ts";
import { StoreReader } from "./reader.ts";
import { SqliteRateWindows } from "./sqlite-rate-windows.ts";
import { type DeletedSessions, SqliteSessionDeletion } from "./sqlite-session-deletion.ts";
import { SqliteVaults } from "./sqlite-vaults.ts";
import { StoreWriter } from "./writer.ts";

const CHANGE = "change";

export interface OpenStoreOptions {
  /** The data directory (`settings.storage.dir`, absolute); created if missing. */
  dir: string;
  durability?: Durability | undefined;
  busyTimeoutMs?: number | undefined;
  /** Clock for timestamps and expiry (tests). */
  now?: (() => number) | undefined;
  /** Told what could not be recovered from audit journals left by dead processes (default: a process warning). */
  warn?: ((message: string) => void) | undefined;
}

/**
 * The SQLite `SharedStore`: a database file in the data directory (or
 * `:memory:`), migrated on open, read and written through `StoreReader` and
 * `StoreWriter`. Each method runs synchronously and settles its promise with
 * the result, so a write is committed when its promise resolves; a thrown
 * error (`StoreError`, `SkillError`) becomes a rejection. Changes are told to
 * this store's listeners only: processes sharing a data directory do not
 * hear each other's (that is what the PostgreSQL store is for).
 */
export class SqliteSharedStore implements SharedStore {
  readonly engine = "sqlite" as const;
  readonly location: string;
  readonly sessions: SessionStore;
  readonly skills: SkillStore;
  readonly vaults: VaultStore;
  readonly credentials: CredentialStore;
  readonly audit: AuditStore;
  readonly caches: CacheStore;
  readonly rateLimits: RateLimitStore;
  readonly #db: Database;
  readonly #reader: StoreReader;
  readonly #writer: StoreWriter;
  readonly #changes = new EventEmitter();
  /** `<dir>/audit-journal`; undefined in memory. */
  readonly #journalFolder: string | undefined;
  readonly #journals = new Set<AuditJournalFile>();
  #closed = false;

  constructor(options: OpenStoreOptions) {
    const now = options.now ?? Date.now;
    this.#db = openDatabase(options.dir, options);
    let cache: CacheEntries;
    let rates: SqliteRateWindows;
    let deletion: SqliteSessionDeletion;
    let vaults: SqliteVaults;
    try {
      migrate(this.#db);
      this.#reader = new StoreReader(this.#db);
      this.#writer = new StoreWriter(this.#db, now);
      cache = new CacheEntries(this.#db, now);
      rates = new SqliteRateWindows(this.#db, now);
      deletion = new SqliteSessionDeletion(this.#db, this.#writer, now);
      vaults = new SqliteVaults(this.#db, this.#writer, now);
    } catch (error) {
      this.#db.close();
      throw error;
    }
    this.location = this.#db.name;
    if (options.dir !== MEMORY_LOCATION) {
      this.#journalFolder = join(options.dir, AUDIT_JOURNAL_DIR);
      // Calls that processes killed mid-call had journaled but not yet flushed.
      recoverAuditJournals(this.#journalFolder, this.#writer, options.warn ?? warnProcess);
    }
    // Every listener is told; a store has as many as it has consumers.
    this.#changes.setMaxListeners(0);

    const reader = this.#reader;
    const writer = this.#writer;
    const run = <T>(fn: () => T): Promise<T> => this.#run(fn);
    this.sessions = {
      touch: (id, idleTtlMs) => run(() => writer.touchSession(id, idleTtlMs)),
      claim: (id, owner) => run(() => writer.claimSession(id, owner)),
      get: (id) => run(() => reader.getSession(id)),
      list: () => run(() => reader.listSessions()),
      delete: (id) => run(() => this.#removedWith(deletion.delete(id)).length > 0),
      deleteIdle: (ttl) => run(() => this.#removedWith(deletion.deleteIdle(ttl))),
      readFile: (session, path) => run(() => reader.readFile(session, path)),
      listFiles: (session, prefix) => run(() => reader.listFiles(session, prefix)),
      writeFile: (session, path, bytes, limits) => run(() => writer.writeFile(session, path, bytes, limits)),
      removeFile: (session, path) => run(() => writer.removeFile(session, path)),
    };
    this.skills = {
      save: (input) =>
        run(() => {
          const saved = writer.saveSkill(input);
          this.#tell({ domain: "skills", name: saved.name, action: "saved" });
          return saved;
        }),
      get: (name, options) => run(() => reader.getSkill(name, options)),
      list: (viewer) => run(() => reader.listSkills(viewer)),
      versions: (name, viewer) => run(() => reader.listSkillVersions(name, viewer)),
      remove: (name, viewer) =>
        run(() => {
          const removed = writer.removeSkill(name, viewer);
          if (removed) this.#tell({ domain: "skills", name, action: "removed" });
          return removed;
        }),
    };
    this.vaults = {
      put: (session, blob, expected) => run(() => vaults.put(session, blob, expected)),
      get: (session) => run(() => vaults.get(session)),
      revision: (session) => run(() => vaults.revision(session)),
      delete: (session) => run(() => writer.deleteVault(session)),
    };
    this.credentials = {
      put: (server, blob) => run(() => writer.putCredential(server, blob)),
      get: (server) => run(() => reader.getCredential(server)),
      delete: (server) => run(() => writer.deleteCredential(server)),
      list: () => run(() => reader.listCredentials()),
    };
    this.audit = {
      // One transaction: one commit (one fsync) for the whole batch.
      append: (entries) =>
        run(() => writer.transaction(() => entries.map((entry) => writer.appendAudit(entry)))),
      appendNow: (entry) => run(() => writer.appendAuditNow(entry)),
      update: (updates) =>
        run(() => writer.transaction(() => updates.map(({ id, update }) => writer.updateAudit(id, update)))),
      write: (batch) =>
        run(() =>
          writer.transaction(() => {
            for (const { id, entry } of batch.complete) {
              if (!writer.updateAudit(id, entry)) writer.appendAudit(entry);
            }
            const ids = batch.append.map((entry) => writer.appendAudit(entry));
            batch.journal?.markFlushed();
            return ids;
          }),
        ),
      list: (query) => run(() => reader.listAudit(query)),
      prune: (before) => run(() => writer.pruneAudit(before)),
      openJournal: () => this.#openJournal(),
    };
    this.caches = {
      get: (namespace, key) => run(() => cache.get(namespace, key)),
      put: (namespace, key, value, ttlMs) => run(() => cache.put(namespace, key, value, ttlMs)),
      deleteExpired: () => run(() => cache.deleteExpired()),
    };
    this.rateLimits = { take: (key, perMinute) => run(() => rates.take(key, perMinute)) };
  }

  async ping(): Promise<void> {
    this.#assertOpen();
  }

  onChange(listener: (change: StoreChange) => void): () => void {
    this.#changes.on(CHANGE, listener);
    return () => this.#changes.off(CHANGE, listener);
  }

  /**
   * Closes the audit journals (removing those fully flushed) and the database;
   * SQLite checkpoints the WAL into the main file. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    for (const journal of this.#journals) {
      try {
        journal.close();
      } catch {
        // Left on disk: the next store opened here recovers what it holds, once.
      }
    }
    this.#closed = true;
    this.#changes.removeAllListeners();
    this.#db.close();
  }

  #openJournal(): AuditJournalFile | undefined {
    this.#assertOpen();
    if (this.#journalFolder === undefined) return undefined;
    const writer = this.#writer;
    const journal = new AuditJournalFile(this.#journalFolder, {
      mark: (name, flushedSeq) => writer.markAuditJournal(name, flushedSeq),
      forget: (name) => writer.forgetAuditJournal(name),
    });
    this.#journals.add(journal);
    return journal;
  }

  /** Runs `fn` now (SQLite is synchronous) and settles with what it returns or throws. */
  #run<T>(fn: () => T): Promise<T> {
    try {
      this.#assertOpen();
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The deleted sessions' ids, after telling listeners the private skills that went with them. */
  #removedWith(deleted: DeletedSessions): string[] {
    for (const name of deleted.skills) this.#tell({ domain: "skills", name, action: "removed" });
    return deleted.ids;
  }

  /** Tells listeners after the commit, each in isolation: one that throws does not stop the others. */
  #tell(change: StoreChange): void {
    for (const listener of this.#changes.listeners(CHANGE)) {
      try {
        (listener as (change: StoreChange) => void)(change);
      } catch (error) {
        warnProcess(`a store change listener failed: ${messageOf(error)}`);
      }
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreError("store.closed", `the store at ${this.location} is closed`);
  }
}

function warnProcess(message: string): void {
  process.emitWarning(message, "ToolScriptWarning");
}

/** Opens (creating and migrating) the SQLite `SharedStore` in `options.dir` (`:memory:` for none on disk). */
export function openSqliteSharedStore(options: OpenStoreOptions): SqliteSharedStore {
  return new SqliteSharedStore(options);
}

/** A `SharedStore` in memory only: the same SQLite code, for tests and embedding. */
export function openMemorySharedStore(options: Omit<OpenStoreOptions, "dir"> = {}): SqliteSharedStore {
  return new SqliteSharedStore({ ...options, dir: MEMORY_LOCATION });
}
