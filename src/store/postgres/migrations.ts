import type { Migration } from "../migrations.ts";

/**
 * The PostgreSQL schema, as a forward-only list: the SQLite schema (../migrations.ts)
 * as it stands, in PostgreSQL's types. A migration is never edited once released:
 * change the schema by appending one. Timestamps are bigint epoch ms; keys that are
 * sorted or compared as ranges (paths, names) use the "C" collation, so that order is
 * byte order as in SQLite whatever the database's locale.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "sessions, workspace files, skills, vaults, credentials",
    sql: `
      CREATE TABLE sessions (
        id text COLLATE "C" PRIMARY KEY,
        created_at bigint NOT NULL,
        last_seen_at bigint NOT NULL,
        idle_ttl_ms bigint,
        -- Quota checks read these instead of summing every file on each write.
        file_count integer NOT NULL DEFAULT 0,
        total_bytes bigint NOT NULL DEFAULT 0,
        -- NULL: the local client (stdio, the CLI).
        owner text
      );
      CREATE INDEX sessions_last_seen ON sessions (last_seen_at);

      CREATE TABLE workspace_files (
        session_id text COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        path text COLLATE "C" NOT NULL,
        bytes bytea NOT NULL,
        size bigint NOT NULL,
        mtime bigint NOT NULL,
        PRIMARY KEY (session_id, path)
      );

      CREATE TABLE skills (
        name text COLLATE "C" PRIMARY KEY,
        visibility text NOT NULL CHECK (visibility IN ('private', 'shared')),
        owner_session text COLLATE "C" REFERENCES sessions (id) ON DELETE CASCADE,
        latest_version integer NOT NULL,
        created_at bigint NOT NULL,
        CHECK ((visibility = 'private') = (owner_session IS NOT NULL))
      );
      CREATE INDEX skills_owner ON skills (owner_session);

      CREATE TABLE skill_versions (
        name text COLLATE "C" NOT NULL REFERENCES skills (name) ON DELETE CASCADE,
        version integer NOT NULL,
        code text NOT NULL,
        description text NOT NULL,
        declaration text NOT NULL,
        language text NOT NULL DEFAULT 'typescript' CHECK (language IN ('typescript', 'python')),
        author_session text,
        created_at bigint NOT NULL,
        -- SkillOrigin; NULL for skills a person or a program saved.
        origin jsonb,
        PRIMARY KEY (name, version)
      );

      -- Sealed by the caller with the vault key: the database never sees plain PII.
      CREATE TABLE vaults (
        session_id text COLLATE "C" PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        blob bytea NOT NULL,
        updated_at bigint NOT NULL
      );

      -- One sealed blob per upstream server (tokens, registered client); a login serves every session.
      CREATE TABLE credentials (
        server text COLLATE "C" PRIMARY KEY,
        blob bytea NOT NULL,
        updated_at bigint NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: "audit records",
    sql: `
      -- No foreign key: the audit trail outlives the sessions it describes.
      CREATE TABLE audit (
        id bigserial PRIMARY KEY,
        kind text NOT NULL DEFAULT 'tool_call',
        time bigint NOT NULL,
        session_id text,
        client text,
        server text NOT NULL,
        tool text NOT NULL,
        args_digest text NOT NULL,
        args_bytes bigint NOT NULL,
        outcome text NOT NULL,
        duration_ms double precision NOT NULL,
        bytes_out bigint,
        policy text,
        detail jsonb
      );
      CREATE INDEX audit_time ON audit (time);
      CREATE INDEX audit_session ON audit (session_id, time);
      CREATE INDEX audit_client ON audit (client, time);
      -- The refusals (policy denials, declined approvals) an operator lists.
      CREATE INDEX audit_denied ON audit (time) WHERE outcome LIKE 'policy.%';
    `,
  },
  {
    version: 3,
    name: "cache entries with an expiry, rate windows",
    sql: `
      CREATE TABLE cache_entries (
        namespace text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (namespace, key)
      );
      CREATE INDEX cache_entries_expiry ON cache_entries (expires_at);

      -- One row per event taken in the last minute, shared by every replica.
      CREATE TABLE rate_windows (
        key text NOT NULL,
        at bigint NOT NULL
      );
      CREATE INDEX rate_windows_key ON rate_windows (key, at);
    `,
  },
  {
    version: 4,
    name: "vault revisions: compare-and-set writes of PII vaults",
    sql: `
      -- A random tag replaced by every write and never reused (a counter would repeat after a
      -- session is deleted and made again): a writer whose copy is not the stored revision is refused.
      ALTER TABLE vaults ADD COLUMN revision text NOT NULL DEFAULT '';
      UPDATE vaults SET revision = md5(random()::text || session_id);
    `,
  },
  {
    version: 5,
    name: "the replica (gateway process) that wrote each audit record",
    sql: `
      -- NULL: written before replicas were recorded.
      ALTER TABLE audit ADD COLUMN replica text;
      CREATE INDEX audit_replica ON audit (replica, time);
      -- toolscript audit --anomalies lists one kind.
      CREATE INDEX audit_kind ON audit (kind, time);
    `,
  },
];
