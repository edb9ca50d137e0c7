import type { SessionStore } from "../domains.ts";
import { asBytes, folderRange, type SessionRow, toSession } from "../rows.ts";
import type { SessionRecord, WorkspaceFileInfo, WriteFileOutcome } from "../types.ts";
import { notifyChange } from "./notifications.ts";
import type { PostgresPool, Queryable } from "./pool.ts";

const TOUCH = `
  INSERT INTO sessions (id, created_at, last_seen_at, idle_ttl_ms) VALUES ($1, $2, $2, $3)
  ON CONFLICT (id) DO UPDATE SET
    last_seen_at = greatest(sessions.last_seen_at, excluded.last_seen_at),
    idle_ttl_ms = CASE WHEN $4::boolean THEN excluded.idle_ttl_ms ELSE sessions.idle_ttl_ms END
  RETURNING *`;
// Atomic by itself: of two claims of one new id, one inserts and the other meets its row.
// IS NOT DISTINCT FROM compares NULL owners (the local client) as equal.
const CLAIM = `
  INSERT INTO sessions (id, created_at, last_seen_at, owner) VALUES ($1, $2, $2, $3)
  ON CONFLICT (id) DO UPDATE SET last_seen_at = greatest(sessions.last_seen_at, excluded.last_seen_at)
    WHERE sessions.owner IS NOT DISTINCT FROM excluded.owner
  RETURNING *`;
const FILE_COLUMNS = "path, size, mtime";

async function touchRow(
  db: Queryable,
  id: string,
  now: number,
  idleTtlMs?: number | null,
): Promise<SessionRecord> {
  const result = await db.query<SessionRow>(TOUCH, [id, now, idleTtlMs ?? null, idleTtlMs !== undefined]);
  return toSession(result.rows[0]!);
}

/** Creates the session `id` if needed, in `tx` (what owned rows need first). */
export async function ensureSession(tx: Queryable, id: string, now: number): Promise<void> {
  await touchRow(tx, id, now);
}

/** Sessions and workspace files in PostgreSQL; quota checks hold the session row's lock. */
export function postgresSessions(db: PostgresPool, now: () => number): SessionStore {
  return {
    touch: (id, idleTtlMs) => touchRow(db, id, now(), idleTtlMs),

    async claim(id, owner) {
      const row = (await db.query<SessionRow>(CLAIM, [id, now(), owner])).rows[0];
      return row && toSession(row);
    },

    async get(id) {
      const row = (await db.query<SessionRow>("SELECT * FROM sessions WHERE id = $1", [id])).rows[0];
      return row && toSession(row);
    },

    async list() {
      return (await db.query<SessionRow>("SELECT * FROM sessions ORDER BY last_seen_at DESC")).rows.map(
        toSession,
      );
    },

    delete: (id) =>
      db.transaction(async (tx) => {
        const locked = await tx.query("SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE", [id]);
        if ((locked.rowCount ?? 0) === 0) return false;
        await deleteSessions(tx, [id]);
        return true;
      }),

    deleteIdle: (defaultIdleTtlMs) =>
      db.transaction(async (tx) => {
        // FOR UPDATE re-checks the row a concurrent touch just changed: a session seen meanwhile stays.
        const idle = await tx.query<{ id: string }>(
          "SELECT id FROM sessions WHERE last_seen_at + coalesce(idle_ttl_ms, $1) < $2 ORDER BY id FOR UPDATE",
          [defaultIdleTtlMs, now()],
        );
        const ids = idle.rows.map((row) => row.id);
        if (ids.length > 0) await deleteSessions(tx, ids);
        return ids;
      }),

    async readFile(session, path) {
      const result = await db.query<{ bytes: Uint8Array; size: number; mtime: number }>(
        "SELECT bytes, size, mtime FROM workspace_files WHERE session_id = $1 AND path = $2",
        [session, path],
      );
      const row = result.rows[0];
      return row && { path, bytes: asBytes(row.bytes), size: row.size, mtime: row.mtime };
    },

    async listFiles(session, prefix) {
      if (prefix === undefined || prefix === "") {
        const all = `SELECT ${FILE_COLUMNS} FROM workspace_files WHERE session_id = $1 ORDER BY path`;
        return (await db.query<WorkspaceFileInfo>(all, [session])).rows;
      }
      const range = folderRange(prefix);
      const under = `SELECT ${FILE_COLUMNS} FROM workspace_files
        WHERE session_id = $1 AND (path = $2 OR (path >= $3 AND path < $4)) ORDER BY path`;
      return (await db.query<WorkspaceFileInfo>(under, [session, prefix, range.low, range.high])).rows;
    },

    writeFile: (session, path, bytes, limits) =>
      db.transaction(async (tx): Promise<WriteFileOutcome> => {
        await touchRow(tx, session, now());
        // Writers of one session queue here until this transaction ends: the usage read is current.
        const usage = (
          await tx.query<{ file_count: number; total_bytes: number }>(
            "SELECT file_count, total_bytes FROM sessions WHERE id = $1 FOR UPDATE",
            [session],
          )
        ).rows[0]!;
        // Keep the tree exportable as real files: no file where a folder is needed, nor the reverse.
        const segments = path.split("/");
        const parents = segments.slice(1).map((_, i) => segments.slice(0, i + 1).join("/"));
        if (parents.length > 0) {
          const parent = await tx.query<{ path: string }>(
            "SELECT path FROM workspace_files WHERE session_id = $1 AND path = ANY($2::text[]) ORDER BY length(path) LIMIT 1",
            [session, parents],
          );
          if (parent.rows[0]) return { ok: false, reason: "parent_is_file", conflict: parent.rows[0].path };
        }
        const range = folderRange(path);
        const child = await tx.query<{ path: string }>(
          "SELECT path FROM workspace_files WHERE session_id = $1 AND path >= $2 AND path < $3 ORDER BY path LIMIT 1",
          [session, range.low, range.high],
        );
        if (child.rows[0]) return { ok: false, reason: "is_directory", conflict: child.rows[0].path };

        const previous = (
          await tx.query<{ size: number }>(
            "SELECT size FROM workspace_files WHERE session_id = $1 AND path = $2",
            [session, path],
          )
        ).rows[0]?.size;
        const addedFiles = previous === undefined ? 1 : 0;
        const addedBytes = bytes.byteLength - (previous ?? 0);
        // Only growth is refused, so a session over a lowered quota can still shrink or overwrite.
        if (addedFiles > 0 && usage.file_count + addedFiles > limits.maxFiles) {
          return { ok: false, reason: "file_count", used: usage.file_count, limit: limits.maxFiles };
        }
        if (addedBytes > 0 && usage.total_bytes + addedBytes > limits.maxTotalBytes) {
          const { total_bytes: used } = usage;
          return { ok: false, reason: "total_bytes", used, limit: limits.maxTotalBytes, needed: addedBytes };
        }
        const mtime = now();
        await tx.query(
          `INSERT INTO workspace_files (session_id, path, bytes, size, mtime) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (session_id, path) DO UPDATE SET bytes = excluded.bytes, size = excluded.size, mtime = excluded.mtime`,
          [
            session,
            path,
            Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
            bytes.byteLength,
            mtime,
          ],
        );
        await addUsage(tx, session, addedFiles, addedBytes);
        return { ok: true, info: { path, size: bytes.byteLength, mtime } };
      }),

    removeFile: (session, path) =>
      db.transaction(async (tx) => {
        // The session row first, as writers take it: the same lock order, no deadlock.
        await tx.query("SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE", [session]);
        const removed = await tx.query<{ size: number }>(
          "DELETE FROM workspace_files WHERE session_id = $1 AND path = $2 RETURNING size",
          [session, path],
        );
        const size = removed.rows[0]?.size;
        if (size === undefined) return false;
        await addUsage(tx, session, -1, -size);
        return true;
      }),
  };
}

/**
 * Deletes the sessions `ids` (locked by the caller) with their files, vault and
 * private skills (ON DELETE CASCADE), and tells every replica those skills are gone.
 */
async function deleteSessions(tx: Queryable, ids: string[]): Promise<void> {
  const owned = await tx.query<{ name: string }>(
    "SELECT name FROM skills WHERE owner_session = ANY($1::text[]) ORDER BY name",
    [ids],
  );
  await tx.query("DELETE FROM sessions WHERE id = ANY($1::text[])", [ids]);
  for (const { name } of owned.rows) await notifyChange(tx, { domain: "skills", name, action: "removed" });
}

async function addUsage(tx: Queryable, session: string, files: number, bytes: number): Promise<void> {
  await tx.query(
    "UPDATE sessions SET file_count = file_count + $1, total_bytes = total_bytes + $2 WHERE id = $3",
    [files, bytes, session],
  );
}
