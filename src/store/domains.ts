/**
 * The asynchronous store, split by domain (issue #22): what every engine
 * (SQLite embedded, PostgreSQL shared by replicas) implements and the one
 * contract suite checks. A method that resolves has committed its write,
 * visible to every replica on the same store from then on. The records are in
 * types.ts.
 */
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
  WorkspaceFileInfo,
  WorkspaceFileRecord,
  WorkspaceLimits,
  WriteFileOutcome,
} from "./types.ts";

/** Sessions and their workspace files. */
export interface SessionStore {
  /** Creates the session or marks it seen now; `idleTtlMs` given sets its expiry policy. */
  touch(id: string, idleTtlMs?: number | null): Promise<SessionRecord>;
  /**
   * Creates the session owned by `owner`, or marks it seen now when `owner`
   * owns it; `undefined` (and nothing changed) when another client owns it.
   * Atomic across replicas: two claiming one new id at once, one wins.
   */
  claim(id: string, owner: string | null): Promise<SessionRecord | undefined>;
  get(id: string): Promise<SessionRecord | undefined>;
  list(): Promise<SessionRecord[]>;
  /** Deletes the session and all its data: files, vault, private skills. */
  delete(id: string): Promise<boolean>;
  /** Deletes every session idle longer than its TTL (or `defaultIdleTtlMs`); returns their ids. */
  deleteIdle(defaultIdleTtlMs: number): Promise<string[]>;

  readFile(session: string, path: string): Promise<WorkspaceFileRecord | undefined>;
  /** Files at or under the folder `prefix` (all when absent), sorted by path. */
  listFiles(session: string, prefix?: string): Promise<WorkspaceFileInfo[]>;
  /** Writes atomically with the quota check (also against concurrent writers); creates the session if needed. */
  writeFile(
    session: string,
    path: string,
    bytes: Uint8Array,
    limits: WorkspaceLimits,
  ): Promise<WriteFileOutcome>;
  removeFile(session: string, path: string): Promise<boolean>;
}

/**
 * What changed in a store, as told to every replica on it (PostgreSQL: LISTEN/NOTIFY).
 * `resync`: changes may have been missed (the listening connection dropped and is
 * back); a listener that caches the domain reloads it.
 */
export type StoreChange =
  | { domain: "skills"; name: string; action: "saved" | "removed" }
  | { domain: "skills"; action: "resync" };

export interface SkillStore {
  /** Stores a new version (1 for a new name) and returns it; concurrent saves get distinct versions. Throws `SkillError`. */
  save(input: SaveSkillInput): Promise<SkillVersion>;
  /** The latest version, or `version`; `undefined` when absent or not visible to `viewer`. */
  get(
    name: string,
    options?: SkillViewer & { version?: number | undefined },
  ): Promise<SkillVersion | undefined>;
  /** Latest version of every skill visible to `viewer`, sorted by name. */
  list(viewer?: SkillViewer): Promise<SkillVersion[]>;
  /** Every version of one skill, oldest first. */
  versions(name: string, viewer?: SkillViewer): Promise<SkillVersion[]>;
  /** Removes all versions; `false` when absent or not visible to `viewer`. */
  remove(name: string, viewer?: SkillViewer): Promise<boolean>;
}

/** A stored vault and its revision: an opaque tag that changes with every write, never reused. */
export interface StoredVault {
  blob: Uint8Array;
  revision: string;
}

/**
 * Each session's PII vault: an opaque blob, encrypted by the caller with the
 * vault key. Writes are compare-and-set on the revision, so replicas adding
 * tokens to one session at once never overwrite each other's: the loser
 * reloads and redoes its tokenizing (gateway/session-vault.ts).
 */
export interface VaultStore {
  /**
   * Stores `blob` when the stored revision is still `expected` (undefined:
   * there is no vault yet), creating the session if needed; returns the new
   * revision, or undefined (nothing written) when another writer got there first.
   */
  put(session: string, blob: Uint8Array, expected: string | undefined): Promise<string | undefined>;
  get(session: string): Promise<StoredVault | undefined>;
  /** The stored revision alone (is a cached copy current?); undefined when there is no vault. */
  revision(session: string): Promise<string | undefined>;
  delete(session: string): Promise<boolean>;
}

/** Upstream servers' OAuth credentials (tokens, registered clients): opaque blobs sealed by the caller. */
export interface CredentialStore {
  put(server: string, blob: Uint8Array): Promise<void>;
  get(server: string): Promise<Uint8Array | undefined>;
  delete(server: string): Promise<boolean>;
  /** The servers with stored credentials, sorted by name; never the blobs. */
  list(): Promise<CredentialInfo[]>;
}

/** One flush of the audit log, written in one transaction (AuditStore.write). */
export interface AuditBatch {
  /** Completions of records written earlier; one whose record is gone (pruned meanwhile) is appended whole. */
  complete: ReadonlyArray<{ id: number; entry: AuditEntry }>;
  /** New records; `write` returns their ids in this order. */
  append: readonly AuditEntry[];
  /**
   * The journal (from `openJournal`) whose every line so far this batch holds:
   * marked so in the batch's transaction, never copied again. Only engines with
   * a journal get one; they run the transaction before `write` returns.
   */
  journal?: AuditJournal | undefined;
}

export interface AuditStore {
  /** Appends records in one transaction; returns their ids in order. */
  append(entries: readonly AuditEntry[]): Promise<number[]>;
  /**
   * Appends one record in its own commit, kept through a kill of this process
   * (SQLite: without waiting for the disk, see StoreWriter.appendAuditNow): the
   * record written before a tool call goes out, and each execution's.
   */
  appendNow(entry: AuditEntry): Promise<number>;
  /** Writes one batch in one transaction; returns the ids of `batch.append` in order. */
  write(batch: AuditBatch): Promise<number[]>;
  /** Completes records written earlier (e.g. "started" ones); false for an id that is not there. */
  update(updates: ReadonlyArray<{ id: number; update: AuditUpdate }>): Promise<boolean[]>;
  list(query?: AuditQuery): Promise<AuditRecord[]>;
  /** Deletes records older than `before`; returns how many. */
  prune(before: number): Promise<number>;
  /**
   * A journal for this process's started tool calls, when the engine keeps
   * one on local disk (SQLite in a data directory); undefined otherwise.
   */
  openJournal(): AuditJournal | undefined;
}

export interface CacheStore {
  /** A cached value; `undefined` when absent or expired. */
  get(namespace: string, key: string): Promise<string | undefined>;
  /** Stores `value` until `ttlMs` from now, replacing what the key held. */
  put(namespace: string, key: string, value: string, ttlMs: number): Promise<void>;
  /** Deletes expired entries; returns how many. */
  deleteExpired(): Promise<number>;
}

export type RateTake = { ok: true } | { ok: false; retryInMs: number };

/** Sliding 60-second windows shared by every replica (per client, per upstream). */
export interface RateLimitStore {
  /** Takes a slot in `key`'s window of at most `perMinute` events, or says when one frees up. */
  take(key: string, perMinute: number): Promise<RateTake>;
}

/** Everything ToolScript persists, by domain. */
export interface SharedStore {
  /** `sqlite` (embedded, one process) or `postgres` (shared by replicas). */
  readonly engine: "sqlite" | "postgres";
  /** The database file, `:memory:`, or the PostgreSQL URL without its password. */
  readonly location: string;
  readonly sessions: SessionStore;
  readonly skills: SkillStore;
  readonly vaults: VaultStore;
  readonly credentials: CredentialStore;
  readonly audit: AuditStore;
  readonly caches: CacheStore;
  readonly rateLimits: RateLimitStore;
  /** Resolves when the store answers; rejects (StoreError `store.unreachable`) when it does not. */
  ping(): Promise<void>;
  /** Hears changes made through any replica's store, this one's included; returns the removal. */
  onChange(listener: (change: StoreChange) => void): () => void;
  close(): Promise<void>;
}
