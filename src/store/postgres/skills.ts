import type { SkillStore } from "../domains.ts";
import { type SkillRow, toSkill } from "../rows.ts";
import { assertSkillName } from "../skill-name.ts";
import { checkSkillVisibility } from "../skill-visibility.ts";
import type { SaveSkillInput, SkillVersion, SkillViewer } from "../types.ts";
import { notifyChange } from "./notifications.ts";
import type { PostgresPool, Queryable } from "./pool.ts";
import { ensureSession } from "./sessions-and-files.ts";

type SkillHead = { visibility: "private" | "shared"; owner_session: string | null; latest_version: number };

// origin as text: the row then maps as SQLite's does (rows.ts).
const COLUMNS = `v.name, v.version, v.code, v.description, v.declaration, v.language, v.author_session,
  s.visibility, s.owner_session, v.created_at, v.origin::text AS origin`;
/** `$1` the viewer's session, `$2` whether the viewer sees every skill (the operator). */
const VISIBLE =
  "FROM skill_versions v JOIN skills s USING (name) WHERE (s.visibility = 'shared' OR s.owner_session = $1 OR $2::boolean)";

function viewerValues(viewer: SkillViewer = {}): [string | null, boolean] {
  return [viewer.session ?? null, viewer.includePrivate === true];
}

/**
 * Skills in PostgreSQL. A save locks the skill's row (creating it when new)
 * so concurrent saves on any replica get distinct versions; saves and removals
 * notify every replica in the same transaction (delivered on commit).
 */
export function postgresSkills(db: PostgresPool, now: () => number): SkillStore {
  const read = async (sql: string, values: unknown[]): Promise<SkillVersion[]> =>
    (await db.query<SkillRow>(sql, values)).rows.map(toSkill);

  return {
    async save(input) {
      assertSkillName(input.name);
      return db.transaction(async (tx) => {
        const saved = await saveVersion(tx, input, now());
        await notifyChange(tx, { domain: "skills", name: saved.name, action: "saved" });
        return saved;
      });
    },

    async get(name, options = {}) {
      const values = [...viewerValues(options), name];
      const rows =
        options.version === undefined
          ? await read(
              `SELECT ${COLUMNS} ${VISIBLE} AND v.name = $3 AND v.version = s.latest_version`,
              values,
            )
          : await read(`SELECT ${COLUMNS} ${VISIBLE} AND v.name = $3 AND v.version = $4`, [
              ...values,
              options.version,
            ]);
      return rows[0];
    },

    list: (viewer) =>
      read(
        `SELECT ${COLUMNS} ${VISIBLE} AND v.version = s.latest_version ORDER BY v.name`,
        viewerValues(viewer),
      ),

    versions: (name, viewer) =>
      read(`SELECT ${COLUMNS} ${VISIBLE} AND v.name = $3 ORDER BY v.version`, [
        ...viewerValues(viewer),
        name,
      ]),

    remove: (name, viewer) =>
      db.transaction(async (tx) => {
        const removed = await tx.query(
          `DELETE FROM skills s WHERE name = $3 AND (s.visibility = 'shared' OR s.owner_session = $1 OR $2::boolean)`,
          [...viewerValues(viewer), name],
        );
        if ((removed.rowCount ?? 0) === 0) return false;
        await notifyChange(tx, { domain: "skills", name, action: "removed" });
        return true;
      }),
  };
}

async function lockHead(tx: Queryable, name: string): Promise<SkillHead | undefined> {
  const result = await tx.query<SkillHead>(
    "SELECT visibility, owner_session, latest_version FROM skills WHERE name = $1 FOR UPDATE",
    [name],
  );
  return result.rows[0];
}

async function saveVersion(tx: Queryable, input: SaveSkillInput, now: number): Promise<SkillVersion> {
  const session = input.session ?? null;
  // The session row before the skill's: the order deleting a session takes them in.
  if (session !== null) await ensureSession(tx, session, now);
  let head = await lockHead(tx, input.name);
  let visibility = checkSkillVisibility(input, head, session);
  if (head === undefined) {
    // A new name: insert it; when another save inserted it meanwhile, wait for it and lock that row.
    const inserted = await tx.query(
      `INSERT INTO skills (name, visibility, owner_session, latest_version, created_at)
       VALUES ($1, $2, $3, 1, $4) ON CONFLICT (name) DO NOTHING`,
      [input.name, visibility, visibility === "private" ? session : null, now],
    );
    if ((inserted.rowCount ?? 0) === 0) {
      head = await lockHead(tx, input.name);
      visibility = checkSkillVisibility(input, head, session);
    }
  }
  const version = (head?.latest_version ?? 0) + 1;
  if (head) {
    await tx.query(
      "UPDATE skills SET visibility = $2, owner_session = $3, latest_version = $4 WHERE name = $1",
      [input.name, visibility, visibility === "private" ? session : null, version],
    );
  }
  await tx.query(
    `INSERT INTO skill_versions (name, version, code, description, declaration, language, author_session, created_at, origin)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    [
      input.name,
      version,
      input.code,
      input.description,
      input.declaration,
      input.language ?? "typescript",
      session,
      now,
      input.origin === undefined ? null : JSON.stringify(input.origin),
    ],
  );
  const saved = await tx.query<SkillRow>(
    `SELECT ${COLUMNS} FROM skill_versions v JOIN skills s USING (name) WHERE v.name = $1 AND v.version = $2`,
    [input.name, version],
  );
  return toSkill(saved.rows[0]!);
}
