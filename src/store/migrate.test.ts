import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { tempDir } from "../../test/helpers/servers.ts";
import { StoreError } from "./errors.ts";
import { migrate, schemaVersion } from "./migrate.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.ts";
import { DATABASE_FILE } from "./open-database.ts";
import { openSqliteSharedStore } from "./sqlite-shared-store.ts";

// The version 1 schema exactly as it shipped; written by hand so this test keeps
// checking the upgrade path even if MIGRATIONS[0] were (wrongly) edited.
const V1_SCHEMA = `
  CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT;
  INSERT INTO schema_migrations VALUES (1, 'sessions, workspace files, skills', 0);
  CREATE TABLE sessions (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL, idle_ttl_ms INTEGER) STRICT;
  CREATE TABLE workspace_files (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, path TEXT NOT NULL, bytes BLOB NOT NULL,
    size INTEGER NOT NULL, mtime INTEGER NOT NULL, PRIMARY KEY (session_id, path)) STRICT;
  CREATE TABLE skills (
    name TEXT PRIMARY KEY, visibility TEXT NOT NULL CHECK (visibility IN ('private', 'shared')),
    owner_session TEXT REFERENCES sessions(id) ON DELETE CASCADE, latest_version INTEGER NOT NULL,
    created_at INTEGER NOT NULL, CHECK ((visibility = 'private') = (owner_session IS NOT NULL))) STRICT;
  CREATE INDEX skills_owner ON skills(owner_session);
  CREATE TABLE skill_versions (
    name TEXT NOT NULL REFERENCES skills(name) ON DELETE CASCADE, version INTEGER NOT NULL, code TEXT NOT NULL,
    description TEXT NOT NULL, declaration TEXT NOT NULL, author_session TEXT, created_at INTEGER NOT NULL,
    PRIMARY KEY (name, version)) STRICT;
  INSERT INTO sessions VALUES ('a', 1, 1, NULL), ('b', 1, 1, NULL);
  INSERT INTO workspace_files VALUES ('a', 'x.txt', x'616263', 3, 1), ('a', 'y/z.txt', x'6465', 2, 1);
  INSERT INTO skills VALUES ('old', 'shared', NULL, 1, 1);
  INSERT INTO skill_versions VALUES ('old', 1, 'export const a = 1;', 'old skill', 'declare const a: 1;', 'a', 1);
`;

function tables(db: Database.Database): string[] {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
    name: string;
  }[];
  return rows.map((row) => row.name);
}

describe("migrate", () => {
  it("creates the latest schema on an empty database, once", () => {
    const db = new Database(":memory:");
    assert.equal(migrate(db), SCHEMA_VERSION);
    const before = tables(db);
    assert.deepEqual(before, [
      "audit_journals",
      "audit_log",
      "cache_entries",
      "oauth_credentials",
      "rate_windows",
      "schema_migrations",
      "sessions",
      "skill_versions",
      "skills",
      "vaults",
      "workspace_files",
    ]);
    assert.equal(migrate(db), SCHEMA_VERSION, "idempotent");
    assert.deepEqual(tables(db), before);
    const applied = db.prepare("SELECT version FROM schema_migrations ORDER BY version").all();
    assert.deepEqual(
      applied,
      MIGRATIONS.map((m) => ({ version: m.version })),
    );
  });

  it("upgrades a version 1 database by hand, keeping its data and backfilling usage counters", async () => {
    const dir = tempDir("migrate");
    try {
      const db = new Database(join(dir.path, DATABASE_FILE));
      db.exec(V1_SCHEMA);
      assert.equal(schemaVersion(db), 1);
      db.close();

      const store = openSqliteSharedStore({ dir: dir.path });
      try {
        assert.deepEqual(
          (await store.sessions.listFiles("a")).map((f) => f.path),
          ["x.txt", "y/z.txt"],
        );
        assert.equal(new TextDecoder().decode((await store.sessions.readFile("a", "x.txt"))?.bytes), "abc");
        const a = await store.sessions.get("a");
        assert.equal(a?.fileCount, 2);
        assert.equal(a?.totalBytes, 5);
        assert.equal((await store.sessions.get("b"))?.fileCount, 0);
        assert.equal((await store.skills.get("old"))?.description, "old skill");
        // Migration 5: skills saved before languages existed are TypeScript.
        assert.equal((await store.skills.get("old"))?.language, "typescript");
        const python = await store.skills.save({
          name: "py",
          code: "def f():\n    return 1\n",
          description: "a Python skill",
          declaration: "def f(): ...",
          language: "python",
        });
        assert.equal(python.language, "python");
        assert.equal((await store.skills.get("old"))?.language, "typescript");
        // New tables work.
        await store.vaults.put("a", new Uint8Array([1, 2]), undefined);
        assert.deepEqual((await store.vaults.get("a"))?.blob, new Uint8Array([1, 2]));
      } finally {
        await store.close();
      }
      const check = new Database(join(dir.path, DATABASE_FILE));
      assert.equal(schemaVersion(check), SCHEMA_VERSION);
      check.close();
    } finally {
      dir.remove();
    }
  });

  it("migration 5: a skill version's language defaults to typescript and is typescript or python", () => {
    const db = new Database(":memory:");
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 5),
    );
    db.exec(`INSERT INTO skills VALUES ('s', 'shared', NULL, 1, 1);
      INSERT INTO skill_versions VALUES ('s', 1, 'export const a = 1;', 'd', '', NULL, 1);`);
    assert.equal(migrate(db), SCHEMA_VERSION);
    assert.deepEqual(db.prepare("SELECT language FROM skill_versions").all(), [{ language: "typescript" }]);
    assert.throws(
      () => db.prepare("UPDATE skill_versions SET language = 'ruby'").run(),
      /CHECK constraint failed/,
    );
  });

  it("migration 6 upgrades a version 5 database, keeping its data", async () => {
    const dir = tempDir("credentials-migrate");
    try {
      const db = new Database(join(dir.path, DATABASE_FILE));
      migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 5),
      );
      assert.equal(schemaVersion(db), 5);
      db.exec(`
        INSERT INTO sessions (id, created_at, last_seen_at, idle_ttl_ms) VALUES ('a', 1, 1, NULL);
        INSERT INTO workspace_files VALUES ('a', 'x.txt', x'616263', 3, 1);
        UPDATE sessions SET file_count = 1, total_bytes = 3 WHERE id = 'a';
        INSERT INTO vaults VALUES ('a', x'0102', 1);`);
      db.close();

      const store = openSqliteSharedStore({ dir: dir.path });
      try {
        assert.equal(new TextDecoder().decode((await store.sessions.readFile("a", "x.txt"))?.bytes), "abc");
        assert.deepEqual((await store.vaults.get("a"))?.blob, new Uint8Array([1, 2]));
        assert.deepEqual(await store.credentials.list(), []);
        await store.credentials.put("github", new Uint8Array([3]));
        assert.deepEqual(await store.credentials.get("github"), new Uint8Array([3]));
      } finally {
        await store.close();
      }
      const check = new Database(join(dir.path, DATABASE_FILE));
      assert.equal(schemaVersion(check), SCHEMA_VERSION);
      assert.ok(SCHEMA_VERSION >= 6);
      check.close();
    } finally {
      dir.remove();
    }
  });

  it("migration 7: a version 6 store keeps its audit log and gains the journals' marks", async () => {
    const dir = tempDir("migrate-7");
    try {
      const db = new Database(join(dir.path, DATABASE_FILE));
      migrate(
        db,
        MIGRATIONS.filter((m) => m.version < 7),
      );
      db.exec(`INSERT INTO audit_log (time, session_id, server, tool, args_digest, args_bytes, outcome, duration_ms)
        VALUES (5, 'a', 'fs', 'read', 'd', 2, 'started', 0)`);
      db.close();

      const store = openSqliteSharedStore({ dir: dir.path });
      try {
        const records = await store.audit.list();
        assert.deepEqual(
          records.map((record) => [record.tool, record.outcome]),
          [["read", "started"]],
        );
        const journal = store.audit.openJournal();
        assert.ok(journal);
        const [read] = records;
        assert.ok(read);
        journal.append({ ...read, time: 6, tool: "write" });
        await store.audit.write({
          complete: [],
          append: [{ ...read, time: 6, tool: "write", outcome: "ok" }],
          journal,
        });
        journal.truncate();
        assert.equal((await store.audit.list()).length, 2);
      } finally {
        await store.close();
      }
      const check = new Database(join(dir.path, DATABASE_FILE));
      assert.equal(schemaVersion(check), SCHEMA_VERSION);
      assert.deepEqual(
        check.prepare("SELECT * FROM audit_journals").all(),
        [],
        "a closed journal leaves no mark",
      );
      check.close();
    } finally {
      dir.remove();
    }
  });

  it("refuses a database from a newer version", () => {
    const db = new Database(":memory:");
    migrate(db);
    db.prepare("INSERT INTO schema_migrations VALUES (?, 'future', 0)").run(SCHEMA_VERSION + 1);
    assert.throws(
      () => migrate(db),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === "store.schema_too_new" &&
        /upgrade ToolScript/.test(error.message),
    );
  });

  it("rolls a failing migration back entirely and reports it", () => {
    const db = new Database(":memory:");
    const broken = [
      ...MIGRATIONS,
      {
        version: SCHEMA_VERSION + 1,
        name: "broken",
        sql: "CREATE TABLE half (a INTEGER); SELECT * FROM nowhere;",
      },
    ];
    assert.throws(
      () => migrate(db, broken),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === "store.migration_failed" &&
        error.message.includes("broken") &&
        error.message.includes("nowhere"),
    );
    assert.equal(schemaVersion(db), SCHEMA_VERSION, "earlier migrations stay applied");
    assert.ok(!tables(db).includes("half"), "the failed migration left nothing behind");
  });
});
