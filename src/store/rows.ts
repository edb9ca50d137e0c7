import type {
  AuditRecord,
  SessionRecord,
  SkillLanguage,
  SkillOrigin,
  SkillVersion,
  SkillVisibility,
} from "./types.ts";

// Row shapes as SQLite returns them, and their mapping to records. Shared by the reader and the writer.

export interface SessionRow {
  id: string;
  created_at: number;
  last_seen_at: number;
  idle_ttl_ms: number | null;
  file_count: number;
  total_bytes: number;
  owner: string | null;
}

export function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    idleTtlMs: row.idle_ttl_ms,
    fileCount: row.file_count,
    totalBytes: row.total_bytes,
    owner: row.owner,
  };
}

export interface SkillRow {
  name: string;
  version: number;
  code: string;
  description: string;
  declaration: string;
  language: SkillLanguage;
  author_session: string | null;
  visibility: SkillVisibility;
  owner_session: string | null;
  created_at: number;
  origin: string | null;
}

export const SKILL_COLUMNS = `v.name, v.version, v.code, v.description, v.declaration, v.language, v.author_session,
  s.visibility, s.owner_session, v.created_at, v.origin`;

/** A session sees shared skills and its own; `@all` (operator) sees every skill. */
export const SKILL_VISIBLE = "(s.visibility = 'shared' OR s.owner_session = @session OR @all = 1)";

export function toSkill(row: SkillRow): SkillVersion {
  return {
    name: row.name,
    version: row.version,
    code: row.code,
    description: row.description,
    declaration: row.declaration,
    language: row.language === "python" ? "python" : "typescript",
    authorSession: row.author_session,
    visibility: row.visibility,
    ownerSession: row.owner_session,
    createdAt: row.created_at,
    origin: row.origin === null ? null : (JSON.parse(row.origin) as SkillOrigin),
  };
}

export interface AuditRow {
  id: number;
  time: number;
  session_id: string | null;
  client: string | null;
  server: string;
  tool: string;
  args_digest: string;
  args_bytes: number;
  outcome: string;
  duration_ms: number;
  kind: string;
  bytes_out: number | null;
  policy: string | null;
  detail: string | null;
  replica: string | null;
}

export function toAudit(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    time: row.time,
    session: row.session_id,
    client: row.client,
    server: row.server,
    tool: row.tool,
    argsDigest: row.args_digest,
    argsBytes: row.args_bytes,
    outcome: row.outcome,
    durationMs: row.duration_ms,
    kind:
      row.kind === "execution" || row.kind === "model_call" || row.kind === "anomaly"
        ? row.kind
        : "tool_call",
    bytesOut: row.bytes_out,
    policy: row.policy,
    detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
    replica: row.replica,
  };
}

/** Upper bound of the paths under the folder `prefix`: '/' + 1 is '0', so `[prefix/, prefix0)` is the folder. */
export function folderRange(prefix: string): { low: string; high: string } {
  return { low: `${prefix}/`, high: `${prefix}0` };
}

/** Bytes from SQLite (a Buffer) as a plain Uint8Array view, without copying. */
export function asBytes(value: Uint8Array): Uint8Array {
  return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}
