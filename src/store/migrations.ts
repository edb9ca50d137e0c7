/**
 * The schema, as a forward-only list. A migration is never edited once
 * released: change the schema by appending one. Each runs in its own
 * transaction with its row in `schema_migrations`.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "sessions, workspace files, skills",
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        idle_ttl_ms INTEGER
      ) STRICT;

      CREATE TABLE workspace_files (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        bytes BLOB NOT NULL,
        size INTEGER NOT NULL,
        mtime INTEGER NOT NULL,
        PRIMARY KEY (session_id, path)
      ) STRICT;

      CREATE TABLE skills (
        name TEXT PRIMARY KEY,
        visibility TEXT NOT NULL CHECK (visibility IN ('private', 'shared')),
        owner_session TEXT REFERENCES sessions(id) ON DELETE CASCADE,
        latest_version INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        CHECK ((visibility = 'private') = (owner_session IS NOT NULL))
      ) STRICT;
      CREATE INDEX skills_owner ON skills(owner_session);

      CREATE TABLE skill_versions (
        name TEXT NOT NULL REFERENCES skills(name) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        code TEXT NOT NULL,
        description TEXT NOT NULL,
        declaration TEXT NOT NULL,
        author_session TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (name, version)
      ) STRICT;
    `,
  },
  {
    version: 2,
    name: "PII vault, audit log, workspace usage counters",
    sql: `
      CREATE TABLE vaults (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        blob BLOB NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      -- No foreign key: the audit trail outlives the sessions it describes.
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        time INTEGER NOT NULL,
        session_id TEXT,
        server TEXT NOT NULL,
        tool TEXT NOT NULL,
        args_digest TEXT NOT NULL,
        args_bytes INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        duration_ms REAL NOT NULL
      ) STRICT;
      CREATE INDEX audit_log_time ON audit_log(time);
      CREATE INDEX audit_log_session ON audit_log(session_id, time);

      -- Quota checks read these instead of summing every file on each write.
      ALTER TABLE sessions ADD COLUMN file_count INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sessions ADD COLUMN total_bytes INTEGER NOT NULL DEFAULT 0;
      UPDATE sessions SET
        file_count = (SELECT count(*) FROM workspace_files f WHERE f.session_id = sessions.id),
        total_bytes = (SELECT coalesce(sum(size), 0) FROM workspace_files f WHERE f.session_id = sessions.id);
      CREATE INDEX sessions_last_seen ON sessions(last_seen_at);
    `,
  },
  {
    version: 3,
    name: "audit log: executions beside tool calls, bytes out, policy decision, details",
    sql: `
      ALTER TABLE audit_log ADD COLUMN kind TEXT NOT NULL DEFAULT 'tool_call';
      ALTER TABLE audit_log ADD COLUMN bytes_out INTEGER;
      ALTER TABLE audit_log ADD COLUMN policy TEXT;
      ALTER TABLE audit_log ADD COLUMN detail TEXT;
    `,
  },
  {
    version: 4,
    name: "session owner (the HTTP client that created it), client of each audit record",
    sql: `
      -- NULL: the local client (stdio, the CLI); sessions from before owners existed stay with it.
      ALTER TABLE sessions ADD COLUMN owner TEXT;
      ALTER TABLE audit_log ADD COLUMN client TEXT;
    `,
  },
  {
    version: 5,
    name: "skill language (typescript or python) of each version",
    sql: `
      -- Every skill before this was TypeScript.
      ALTER TABLE skill_versions ADD COLUMN language TEXT NOT NULL DEFAULT 'typescript'
        CHECK (language IN ('typescript', 'python'));
    `,
  },
  {
    version: 6,
    name: "OAuth credentials of upstream servers",
    sql: `
      -- One sealed (encrypted) blob per upstream server: tokens and its registered client.
      -- Keyed by server name, not session: a login serves every session of the gateway.
      CREATE TABLE oauth_credentials (
        server TEXT PRIMARY KEY,
        blob BLOB NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 7,
    name: "audit journals: how far each process's journal of started calls is in the audit log",
    sql: `
      -- One row per journal file in <dir>/audit-journal/ (audit-journal.ts): every line up to
      -- flushed_seq is in audit_log, committed in the same transaction as those rows, so a
      -- journal that outlives its flush (a crash before it was emptied) is not copied twice.
      CREATE TABLE audit_journals (
        name TEXT PRIMARY KEY,
        flushed_seq INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 8,
    name: "skill origin (generated by solve_task), cache entries with an expiry",
    sql: `
      -- JSON of SkillOrigin; NULL for skills a person or a program saved.
      ALTER TABLE skill_versions ADD COLUMN origin TEXT;
      -- Small caches that outlive a restart (generated tools by task, model answers by request).
      CREATE TABLE cache_entries (
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (namespace, key)
      ) STRICT;
      CREATE INDEX cache_entries_expiry ON cache_entries(expires_at);
    `,
  },
  {
    version: 9,
    name: "rate windows: events of each rate limit's sliding minute",
    sql: `
      -- One row per event taken in the last minute; in the database (not memory) so that
      -- several processes on one data directory share each limit. Rows older than the
      -- window are deleted by the next take on their key.
      CREATE TABLE rate_windows (
        key TEXT NOT NULL,
        at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX rate_windows_key ON rate_windows(key, at);
    `,
  },
  {
    version: 10,
    name: "vault revisions: compare-and-set writes of PII vaults",
    sql: `
      -- A random tag replaced by every write and never reused (a counter would repeat after a
      -- session is deleted and made again): a writer whose copy is not the stored revision is refused.
      ALTER TABLE vaults ADD COLUMN revision TEXT NOT NULL DEFAULT '';
      UPDATE vaults SET revision = lower(hex(randomblob(16)));
    `,
  },
  {
    version: 11,
    name: "audit log: the replica (gateway process) that wrote each record",
    sql: `
      -- NULL: written before replicas were recorded.
      ALTER TABLE audit_log ADD COLUMN replica TEXT;
      CREATE INDEX audit_log_replica ON audit_log(replica, time);
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
