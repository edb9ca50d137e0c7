import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { AuditJournalFile } from "./audit-journal.ts";
import { AUDIT_JOURNAL_DIR } from "./audit-journal-format.ts";
import { recoverAuditJournals } from "./audit-journal-recovery.ts";
import { CacheEntries } from "./cache-entries.ts";
import { StoreError } from "./errors.ts";
import { migrate } from "./migrate.ts";
import { type Durability, MEMORY_LOCATION, openDatabase } from "./open-database.ts";
import { StoreReader } from "./reader.ts";
import type {
  AuditEntry,
  AuditJournal,
  AuditQuery,
  AuditRecord,
  AuditUpdate,
  CredentialInfo,
  SaveSkillInput,
  SessionRecord,
  SkillVersion,
  SkillViewer,
  Store,
  WorkspaceFileInfo,
  WorkspaceFileRecord,
  WorkspaceLimits,
  WriteFileOutcome,
} from "./types.ts";
import { StoreWriter } from "./writer.ts";

/** An opened, migrated database and its parts, shared with `SqliteSharedStore` during the move to it. */
export interface SqliteParts {
  db: Database;
  reader: StoreReader;
  writer: StoreWriter;
  cache: CacheEntries;
  journalFolder: string | undefined;
}

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

/** The SQLite `Store`: a file in the data directory, or `:memory:` (same code, nothing on disk). */
export class SqliteStore implements Store {
  readonly location: string;
  readonly #db: Database;
  readonly #reader: StoreReader;
  readonly #writer: StoreWriter;
  readonly #cache: CacheEntries;
  /** `<dir>/audit-journal`; undefined in memory. */
  readonly #journalFolder: string | undefined;
  readonly #journals = new Set<AuditJournalFile>();
  #closed = false;

  constructor(options: OpenStoreOptions, parts?: SqliteParts) {
    if (parts) {
      // A view of a database `SqliteSharedStore` opened, migrated and recovered.
      this.#db = parts.db;
      this.#reader = parts.reader;
      this.#writer = parts.writer;
      this.#cache = parts.cache;
      this.#journalFolder = parts.journalFolder;
      this.location = this.#db.name;
      return;
    }
    this.#db = openDatabase(options.dir, options);
    try {
      migrate(this.#db);
      this.#reader = new StoreReader(this.#db);
      this.#writer = new StoreWriter(this.#db, options.now ?? Date.now);
      this.#cache = new CacheEntries(this.#db, options.now ?? Date.now);
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
  }

  touchSession(id: string, idleTtlMs?: number | null): SessionRecord {
    return this.#open().writer.touchSession(id, idleTtlMs);
  }
  claimSession(id: string, owner: string | null): SessionRecord | undefined {
    return this.#open().writer.claimSession(id, owner);
  }
  getSession(id: string): SessionRecord | undefined {
    return this.#open().reader.getSession(id);
  }
  listSessions(): SessionRecord[] {
    return this.#open().reader.listSessions();
  }
  deleteSession(id: string): boolean {
    return this.#open().writer.deleteSession(id);
  }
  deleteIdleSessions(defaultIdleTtlMs: number): string[] {
    return this.#open().writer.deleteIdleSessions(defaultIdleTtlMs);
  }

  readFile(session: string, path: string): WorkspaceFileRecord | undefined {
    return this.#open().reader.readFile(session, path);
  }
  listFiles(session: string, prefix?: string): WorkspaceFileInfo[] {
    return this.#open().reader.listFiles(session, prefix);
  }
  writeFile(session: string, path: string, bytes: Uint8Array, limits: WorkspaceLimits): WriteFileOutcome {
    return this.#open().writer.writeFile(session, path, bytes, limits);
  }
  removeFile(session: string, path: string): boolean {
    return this.#open().writer.removeFile(session, path);
  }

  saveSkill(input: SaveSkillInput): SkillVersion {
    return this.#open().writer.saveSkill(input);
  }
  getSkill(name: string, options?: SkillViewer & { version?: number | undefined }): SkillVersion | undefined {
    return this.#open().reader.getSkill(name, options);
  }
  listSkills(viewer?: SkillViewer): SkillVersion[] {
    return this.#open().reader.listSkills(viewer);
  }
  listSkillVersions(name: string, viewer?: SkillViewer): SkillVersion[] {
    return this.#open().reader.listSkillVersions(name, viewer);
  }
  removeSkill(name: string, viewer?: SkillViewer): boolean {
    return this.#open().writer.removeSkill(name, viewer);
  }

  getCacheEntry(namespace: string, key: string): string | undefined {
    return this.#open().cache.get(namespace, key);
  }
  putCacheEntry(namespace: string, key: string, value: string, ttlMs: number): void {
    this.#open().cache.put(namespace, key, value, ttlMs);
  }
  deleteExpiredCacheEntries(): number {
    return this.#open().cache.deleteExpired();
  }

  putVault(session: string, blob: Uint8Array): void {
    this.#open().writer.putVault(session, blob);
  }
  getVault(session: string): Uint8Array | undefined {
    return this.#open().reader.getVault(session);
  }
  deleteVault(session: string): boolean {
    return this.#open().writer.deleteVault(session);
  }

  putCredential(server: string, blob: Uint8Array): void {
    this.#open().writer.putCredential(server, blob);
  }
  getCredential(server: string): Uint8Array | undefined {
    return this.#open().reader.getCredential(server);
  }
  deleteCredential(server: string): boolean {
    return this.#open().writer.deleteCredential(server);
  }
  listCredentials(): CredentialInfo[] {
    return this.#open().reader.listCredentials();
  }

  appendAudit(entry: AuditEntry): number {
    return this.#open().writer.appendAudit(entry);
  }
  appendAuditNow(entry: AuditEntry): number {
    return this.#open().writer.appendAuditNow(entry);
  }
  updateAudit(id: number, update: AuditUpdate): boolean {
    return this.#open().writer.updateAudit(id, update);
  }
  listAudit(query?: AuditQuery): AuditRecord[] {
    return this.#open().reader.listAudit(query);
  }
  pruneAudit(before: number): number {
    return this.#open().writer.pruneAudit(before);
  }

  openAuditJournal(): AuditJournal | undefined {
    const { writer } = this.#open();
    if (this.#journalFolder === undefined) return undefined;
    const journal = new AuditJournalFile(this.#journalFolder, {
      mark: (name, flushedSeq) => writer.markAuditJournal(name, flushedSeq),
      forget: (name) => writer.forgetAuditJournal(name),
    });
    this.#journals.add(journal);
    return journal;
  }

  batch<T>(fn: () => T): T {
    return this.#open().writer.transaction(fn);
  }

  /**
   * Closes the audit journals (removing those fully flushed) and the database;
   * SQLite checkpoints the WAL into the main file. Idempotent.
   */
  close(): void {
    if (this.#closed) return;
    for (const journal of this.#journals) {
      try {
        journal.close();
      } catch {
        // Left on disk: the next store opened here recovers what it holds, once.
      }
    }
    this.#closed = true;
    this.#db.close();
  }

  #open(): { reader: StoreReader; writer: StoreWriter; cache: CacheEntries } {
    if (this.#closed) throw new StoreError("store.closed", `the store at ${this.location} is closed`);
    return { reader: this.#reader, writer: this.#writer, cache: this.#cache };
  }
}

function warnProcess(message: string): void {
  process.emitWarning(message, "ToolScriptWarning");
}

/**
 * Opens (creating and migrating) the store in `options.dir`, and recovers the
 * audit journals left there by processes that died.
 */
export function openStore(options: OpenStoreOptions): Store {
  return new SqliteStore(options);
}

/** A store that lives in memory only: the same SQLite code, for tests and embedding. */
export function openMemoryStore(options: Omit<OpenStoreOptions, "dir"> = {}): Store {
  return new SqliteStore({ ...options, dir: MEMORY_LOCATION });
}
