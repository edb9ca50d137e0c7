import type { Database, Statement } from "better-sqlite3";
import {
  type AuditRow,
  asBytes,
  folderRange,
  type SessionRow,
  SKILL_COLUMNS,
  SKILL_VISIBLE,
  type SkillRow,
  toAudit,
  toSession,
  toSkill,
} from "./rows.ts";
import type {
  AuditQuery,
  AuditRecord,
  CredentialInfo,
  SessionRecord,
  SkillVersion,
  SkillViewer,
  WorkspaceFileInfo,
  WorkspaceFileRecord,
} from "./types.ts";

export const DEFAULT_AUDIT_LIMIT = 100;

type Params = Record<string, unknown>;

function viewerParams(viewer: SkillViewer = {}): { session: string | null; all: number } {
  return { session: viewer.session ?? null, all: viewer.includePrivate ? 1 : 0 };
}

/** Every read, as prepared statements. Reads never change the database. */
export class StoreReader {
  readonly #session: Statement<[string], SessionRow>;
  readonly #sessions: Statement<[], SessionRow>;
  readonly #file: Statement<[string, string], { bytes: Uint8Array; size: number; mtime: number }>;
  readonly #files: Statement<[string], WorkspaceFileInfo>;
  readonly #filesUnder: Statement<[string, string, string, string], WorkspaceFileInfo>;
  readonly #skillLatest: Statement<[Params], SkillRow>;
  readonly #skillVersion: Statement<[Params], SkillRow>;
  readonly #skills: Statement<[Params], SkillRow>;
  readonly #skillVersions: Statement<[Params], SkillRow>;
  readonly #credential: Statement<[string], { blob: Uint8Array }>;
  readonly #credentials: Statement<[], CredentialInfo>;
  readonly #audit: Statement<[Params], AuditRow>;

  constructor(db: Database) {
    this.#session = db.prepare("SELECT * FROM sessions WHERE id = ?");
    this.#sessions = db.prepare("SELECT * FROM sessions ORDER BY last_seen_at DESC");
    this.#file = db.prepare(
      "SELECT bytes, size, mtime FROM workspace_files WHERE session_id = ? AND path = ?",
    );
    this.#files = db.prepare(
      "SELECT path, size, mtime FROM workspace_files WHERE session_id = ? ORDER BY path",
    );
    this.#filesUnder = db.prepare(`
      SELECT path, size, mtime FROM workspace_files
      WHERE session_id = ? AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path`);
    const visible = `FROM skill_versions v JOIN skills s USING (name) WHERE ${SKILL_VISIBLE}`;
    this.#skillLatest = db.prepare(
      `SELECT ${SKILL_COLUMNS} ${visible} AND v.name = @name AND v.version = s.latest_version`,
    );
    this.#skillVersion = db.prepare(
      `SELECT ${SKILL_COLUMNS} ${visible} AND v.name = @name AND v.version = @version`,
    );
    this.#skills = db.prepare(
      `SELECT ${SKILL_COLUMNS} ${visible} AND v.version = s.latest_version ORDER BY v.name`,
    );
    this.#skillVersions = db.prepare(
      `SELECT ${SKILL_COLUMNS} ${visible} AND v.name = @name ORDER BY v.version`,
    );
    this.#credential = db.prepare("SELECT blob FROM oauth_credentials WHERE server = ?");
    this.#credentials = db.prepare(
      "SELECT server, updated_at AS updatedAt FROM oauth_credentials ORDER BY server",
    );
    this.#audit = db.prepare(`
      SELECT * FROM audit_log
      WHERE (@session IS NULL OR session_id = @session) AND (@client IS NULL OR client = @client)
        AND time >= @since
        AND (@denied = 0 OR outcome LIKE 'policy.%') AND (@kind IS NULL OR kind = @kind)
        AND (@replica IS NULL OR replica = @replica)
      ORDER BY time DESC, id DESC LIMIT @limit`);
  }

  getSession(id: string): SessionRecord | undefined {
    const row = this.#session.get(id);
    return row && toSession(row);
  }

  listSessions(): SessionRecord[] {
    return this.#sessions.all().map(toSession);
  }

  readFile(session: string, path: string): WorkspaceFileRecord | undefined {
    const row = this.#file.get(session, path);
    return row && { path, bytes: asBytes(row.bytes), size: row.size, mtime: row.mtime };
  }

  listFiles(session: string, prefix?: string): WorkspaceFileInfo[] {
    if (prefix === undefined || prefix === "") return this.#files.all(session);
    const range = folderRange(prefix);
    return this.#filesUnder.all(session, prefix, range.low, range.high);
  }

  getSkill(
    name: string,
    options: SkillViewer & { version?: number | undefined } = {},
  ): SkillVersion | undefined {
    const params = { name, ...viewerParams(options) };
    const row =
      options.version === undefined
        ? this.#skillLatest.get(params)
        : this.#skillVersion.get({ ...params, version: options.version });
    return row && toSkill(row);
  }

  listSkills(viewer?: SkillViewer): SkillVersion[] {
    return this.#skills.all(viewerParams(viewer)).map(toSkill);
  }

  listSkillVersions(name: string, viewer?: SkillViewer): SkillVersion[] {
    return this.#skillVersions.all({ name, ...viewerParams(viewer) }).map(toSkill);
  }

  getCredential(server: string): Uint8Array | undefined {
    const row = this.#credential.get(server);
    return row && asBytes(row.blob);
  }

  listCredentials(): CredentialInfo[] {
    return this.#credentials.all();
  }

  listAudit(query: AuditQuery = {}): AuditRecord[] {
    return this.#audit
      .all({
        session: query.session ?? null,
        client: query.client ?? null,
        since: query.since ?? 0,
        denied: query.denied ? 1 : 0,
        kind: query.kind ?? null,
        replica: query.replica ?? null,
        limit: query.limit ?? DEFAULT_AUDIT_LIMIT,
      })
      .map(toAudit);
  }
}
