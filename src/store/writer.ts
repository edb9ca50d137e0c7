import type { Database, Statement, Transaction } from "better-sqlite3";
import { type AuditValues, auditValues } from "./audit-values.ts";
import { folderRange, type SessionRow, SKILL_COLUMNS, type SkillRow, toSession, toSkill } from "./rows.ts";
import { assertSkillName } from "./skill-name.ts";
import { checkSkillVisibility } from "./skill-visibility.ts";
import type {
  AuditEntry,
  AuditUpdate,
  SaveSkillInput,
  SessionRecord,
  SkillVersion,
  SkillViewer,
  SkillVisibility,
  WorkspaceLimits,
  WriteFileOutcome,
} from "./types.ts";

type Params = Record<string, unknown>;
/** `PRAGMA synchronous` reads FULL as 2. */
const SYNC_FULL = 2;

/**
 * The one place that writes. Every write is a prepared statement run inside an
 * IMMEDIATE transaction (the write lock is taken up front, so a concurrent
 * process waits on the busy timeout instead of failing mid-transaction), and
 * checks that guard a write (quotas, ownership) run inside the same transaction.
 * Writes nest: inside `transaction` they become savepoints of the outer one.
 */
export class StoreWriter {
  readonly #run: Transaction<(fn: () => unknown) => unknown>;
  readonly #now: () => number;
  readonly #touch: Statement<[Params], SessionRow>;
  readonly #claim: Statement<[Params], SessionRow>;
  readonly #fileSize: Statement<[string, string], { size: number }>;
  readonly #fileExists: Statement<[string, string], { one: number }>;
  readonly #firstUnder: Statement<[string, string, string], { path: string }>;
  readonly #upsertFile: Statement<[Params]>;
  readonly #deleteFile: Statement<[string, string], { size: number }>;
  readonly #addUsage: Statement<[number, number, string]>;
  readonly #deleteSession: Statement<[string]>;
  readonly #skillHead: Statement<
    [string],
    { visibility: SkillVisibility; owner_session: string | null; latest_version: number }
  >;
  readonly #insertSkill: Statement<[Params]>;
  readonly #updateSkill: Statement<[Params]>;
  readonly #insertVersion: Statement<[Params]>;
  readonly #readVersion: Statement<[string, number], SkillRow>;
  readonly #deleteSkill: Statement<[Params]>;
  readonly #deleteVault: Statement<[string]>;
  readonly #putCredential: Statement<[string, Uint8Array, number]>;
  readonly #deleteCredential: Statement<[string]>;
  readonly #appendAudit: Statement<AuditValues>;
  readonly #pruneAudit: Statement<[number]>;
  readonly #updateAudit: Statement<[Params]>;
  readonly #journalMark: Statement<[string], { flushed_seq: number }>;
  readonly #markJournal: Statement<[string, number]>;
  readonly #forgetJournal: Statement<[string]>;
  readonly #journalNames: Statement<[], { name: string }>;
  readonly #db: Database;

  constructor(db: Database, now: () => number) {
    this.#db = db;
    this.#run = db.transaction((fn: () => unknown) => fn());
    this.#now = now;
    this.#touch = db.prepare(`
      INSERT INTO sessions (id, created_at, last_seen_at, idle_ttl_ms) VALUES (@id, @now, @now, @ttl)
      ON CONFLICT (id) DO UPDATE SET
        last_seen_at = max(last_seen_at, excluded.last_seen_at),
        idle_ttl_ms = CASE WHEN @setTtl = 1 THEN excluded.idle_ttl_ms ELSE idle_ttl_ms END
      RETURNING *`);
    // `IS` compares NULL owners (the local client) as equal; a row owned by someone else is left as it is.
    this.#claim = db.prepare(`
      INSERT INTO sessions (id, created_at, last_seen_at, idle_ttl_ms, owner) VALUES (@id, @now, @now, NULL, @owner)
      ON CONFLICT (id) DO UPDATE SET last_seen_at = max(last_seen_at, excluded.last_seen_at)
        WHERE owner IS excluded.owner
      RETURNING *`);
    this.#fileSize = db.prepare("SELECT size FROM workspace_files WHERE session_id = ? AND path = ?");
    this.#fileExists = db.prepare("SELECT 1 AS one FROM workspace_files WHERE session_id = ? AND path = ?");
    this.#firstUnder = db.prepare(
      "SELECT path FROM workspace_files WHERE session_id = ? AND path >= ? AND path < ? LIMIT 1",
    );
    this.#upsertFile = db.prepare(`
      INSERT INTO workspace_files (session_id, path, bytes, size, mtime) VALUES (@session, @path, @bytes, @size, @mtime)
      ON CONFLICT (session_id, path) DO UPDATE SET bytes = excluded.bytes, size = excluded.size, mtime = excluded.mtime`);
    this.#deleteFile = db.prepare(
      "DELETE FROM workspace_files WHERE session_id = ? AND path = ? RETURNING size",
    );
    this.#addUsage = db.prepare(
      "UPDATE sessions SET file_count = file_count + ?, total_bytes = total_bytes + ? WHERE id = ?",
    );
    this.#deleteSession = db.prepare("DELETE FROM sessions WHERE id = ?");
    this.#skillHead = db.prepare(
      "SELECT visibility, owner_session, latest_version FROM skills WHERE name = ?",
    );
    this.#insertSkill = db.prepare(`
      INSERT INTO skills (name, visibility, owner_session, latest_version, created_at)
      VALUES (@name, @visibility, @owner, @version, @now)`);
    this.#updateSkill = db.prepare(
      "UPDATE skills SET visibility = @visibility, owner_session = @owner, latest_version = @version WHERE name = @name",
    );
    this.#insertVersion = db.prepare(`
      INSERT INTO skill_versions (name, version, code, description, declaration, language, author_session, created_at, origin)
      VALUES (@name, @version, @code, @description, @declaration, @language, @author, @now, @origin)`);
    this.#readVersion = db.prepare(
      `SELECT ${SKILL_COLUMNS} FROM skill_versions v JOIN skills s USING (name) WHERE v.name = ? AND v.version = ?`,
    );
    this.#deleteSkill = db.prepare(`
      DELETE FROM skills AS s WHERE name = @name
        AND (s.visibility = 'shared' OR s.owner_session = @session OR @all = 1)`);
    this.#deleteVault = db.prepare("DELETE FROM vaults WHERE session_id = ?");
    this.#putCredential = db.prepare(`
      INSERT INTO oauth_credentials (server, blob, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (server) DO UPDATE SET blob = excluded.blob, updated_at = excluded.updated_at`);
    this.#deleteCredential = db.prepare("DELETE FROM oauth_credentials WHERE server = ?");
    this.#appendAudit = db.prepare(`
      INSERT INTO audit_log (time, session_id, server, tool, args_digest, args_bytes, outcome, duration_ms,
        kind, bytes_out, policy, detail, client, replica)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.#pruneAudit = db.prepare("DELETE FROM audit_log WHERE time < ?");
    this.#updateAudit = db.prepare(`
      UPDATE audit_log SET outcome = @outcome, duration_ms = @durationMs, bytes_out = @bytesOut,
        policy = @policy, detail = @detail WHERE id = @id`);
    this.#journalMark = db.prepare("SELECT flushed_seq FROM audit_journals WHERE name = ?");
    // A mark only moves forward: two processes recovering one journal agree on the highest.
    this.#markJournal = db.prepare(`
      INSERT INTO audit_journals (name, flushed_seq) VALUES (?, ?)
      ON CONFLICT (name) DO UPDATE SET flushed_seq = max(flushed_seq, excluded.flushed_seq)`);
    this.#forgetJournal = db.prepare("DELETE FROM audit_journals WHERE name = ?");
    this.#journalNames = db.prepare("SELECT name FROM audit_journals ORDER BY name");
  }

  /** Runs `fn` in one IMMEDIATE transaction (a savepoint when already inside one). */
  transaction<T>(fn: () => T): T {
    return this.#run.immediate(fn) as T;
  }

  touchSession(id: string, idleTtlMs?: number | null): SessionRecord {
    return this.transaction(() => this.#touchRow(id, idleTtlMs));
  }

  claimSession(id: string, owner: string | null): SessionRecord | undefined {
    return this.transaction(() => {
      const row = this.#claim.get({ id, now: this.#now(), owner });
      return row && toSession(row);
    });
  }

  deleteSession(id: string): boolean {
    return this.transaction(() => this.#deleteSession.run(id).changes > 0);
  }

  writeFile(session: string, path: string, bytes: Uint8Array, limits: WorkspaceLimits): WriteFileOutcome {
    return this.transaction((): WriteFileOutcome => {
      const usage = this.#touchRow(session, undefined);
      // Keep the tree exportable as real files: no file where a folder is needed, nor the reverse.
      const segments = path.split("/");
      for (let end = 1; end < segments.length; end++) {
        const parent = segments.slice(0, end).join("/");
        if (this.#fileExists.get(session, parent))
          return { ok: false, reason: "parent_is_file", conflict: parent };
      }
      const range = folderRange(path);
      const child = this.#firstUnder.get(session, range.low, range.high);
      if (child) return { ok: false, reason: "is_directory", conflict: child.path };

      const previous = this.#fileSize.get(session, path)?.size;
      const addedFiles = previous === undefined ? 1 : 0;
      const addedBytes = bytes.byteLength - (previous ?? 0);
      // Only growth is refused, so a session over a lowered quota can still shrink or overwrite.
      if (addedFiles > 0 && usage.fileCount + addedFiles > limits.maxFiles) {
        return { ok: false, reason: "file_count", used: usage.fileCount, limit: limits.maxFiles };
      }
      if (addedBytes > 0 && usage.totalBytes + addedBytes > limits.maxTotalBytes) {
        return {
          ok: false,
          reason: "total_bytes",
          used: usage.totalBytes,
          limit: limits.maxTotalBytes,
          needed: addedBytes,
        };
      }
      const mtime = this.#now();
      this.#upsertFile.run({ session, path, bytes, size: bytes.byteLength, mtime });
      this.#addUsage.run(addedFiles, addedBytes, session);
      return { ok: true, info: { path, size: bytes.byteLength, mtime } };
    });
  }

  removeFile(session: string, path: string): boolean {
    return this.transaction(() => {
      const removed = this.#deleteFile.get(session, path);
      if (!removed) return false;
      this.#addUsage.run(-1, -removed.size, session);
      return true;
    });
  }

  saveSkill(input: SaveSkillInput): SkillVersion {
    assertSkillName(input.name);
    const session = input.session ?? null;
    return this.transaction(() => {
      const head = this.#skillHead.get(input.name);
      const visibility = checkSkillVisibility(input, head, session);
      if (session !== null) this.#touchRow(session, undefined);
      const now = this.#now();
      const version = (head?.latest_version ?? 0) + 1;
      const owner = visibility === "private" ? session : null;
      const row = { name: input.name, visibility, owner, version, now };
      if (head) this.#updateSkill.run(row);
      else this.#insertSkill.run(row);
      this.#insertVersion.run({
        name: input.name,
        version,
        code: input.code,
        description: input.description,
        declaration: input.declaration,
        language: input.language ?? "typescript",
        author: session,
        now,
        origin: input.origin === undefined ? null : JSON.stringify(input.origin),
      });
      return toSkill(this.#readVersion.get(input.name, version)!);
    });
  }

  removeSkill(name: string, viewer: SkillViewer = {}): boolean {
    return this.transaction(
      () =>
        this.#deleteSkill.run({ name, session: viewer.session ?? null, all: viewer.includePrivate ? 1 : 0 })
          .changes > 0,
    );
  }

  deleteVault(session: string): boolean {
    return this.transaction(() => this.#deleteVault.run(session).changes > 0);
  }

  putCredential(server: string, blob: Uint8Array): void {
    this.transaction(() => {
      this.#putCredential.run(server, blob, this.#now());
    });
  }

  deleteCredential(server: string): boolean {
    return this.transaction(() => this.#deleteCredential.run(server).changes > 0);
  }

  appendAudit(entry: AuditEntry): number {
    const values = auditValues(entry, entry.detail ? JSON.stringify(entry.detail) : null);
    // One statement is atomic by itself: inside a batch (a flush of hundreds of records)
    // it needs no savepoint of its own, which would cost about as much as the insert.
    if (this.#db.inTransaction) return Number(this.#appendAudit.run(...values).lastInsertRowid);
    return this.transaction(() => Number(this.#appendAudit.run(...values).lastInsertRowid));
  }

  /**
   * Appends `entry` in its own commit, without the fsync that durability `full`
   * adds: a WAL commit is written to the WAL file before this returns, and the
   * operating system keeps what was written when the process is killed (even
   * `kill -9`); only a power loss or kernel crash before the next fsync (the next
   * full commit or checkpoint) can drop it, never corrupt the database. That is
   * the bound for a record written before every upstream call: ~0.15 ms instead
   * of ~6 ms per call.
   */
  appendAuditNow(entry: AuditEntry): number {
    // The safety level cannot change inside a transaction; there the outer commit decides anyway.
    const relax = !this.#db.inTransaction && this.#db.pragma("synchronous", { simple: true }) === SYNC_FULL;
    if (relax) this.#db.pragma("synchronous = NORMAL");
    try {
      return this.appendAudit(entry);
    } finally {
      if (relax) this.#db.pragma("synchronous = FULL");
    }
  }

  updateAudit(id: number, update: AuditUpdate): boolean {
    const row = {
      id,
      outcome: update.outcome,
      durationMs: update.durationMs,
      bytesOut: update.bytesOut ?? null,
      policy: update.policy ?? null,
      detail: update.detail ? JSON.stringify(update.detail) : null,
    };
    if (this.#db.inTransaction) return this.#updateAudit.run(row).changes > 0;
    return this.transaction(() => this.#updateAudit.run(row).changes > 0);
  }

  /** The line up to which the audit journal `name` is in the audit log; 0 when none is. */
  auditJournalMark(name: string): number {
    return this.#journalMark.get(name)?.flushed_seq ?? 0;
  }

  /** Every line up to `flushedSeq` of the audit journal `name` is in the audit log (with this transaction). */
  markAuditJournal(name: string, flushedSeq: number): void {
    this.transaction(() => this.#markJournal.run(name, flushedSeq));
  }

  /** The audit journal `name` is gone: its mark is no longer needed. */
  forgetAuditJournal(name: string): void {
    this.transaction(() => this.#forgetJournal.run(name));
  }

  /** The audit journals that have a mark. */
  auditJournalNames(): string[] {
    return this.#journalNames.all().map((row) => row.name);
  }

  pruneAudit(before: number): number {
    return this.transaction(() => this.#pruneAudit.run(before).changes);
  }

  #touchRow(id: string, idleTtlMs: number | null | undefined): SessionRecord {
    const setTtl = idleTtlMs !== undefined ? 1 : 0;
    const row = this.#touch.get({ id, now: this.#now(), ttl: idleTtlMs ?? null, setTtl });
    return toSession(row!);
  }
}
