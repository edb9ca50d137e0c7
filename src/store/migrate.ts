import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.ts";
import { MIGRATIONS, type Migration } from "./migrations.ts";

const VERSION_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`;

/** The highest applied migration, 0 for an empty database. */
export function schemaVersion(db: Database): number {
  db.exec(VERSION_TABLE);
  const row = db.prepare("SELECT max(version) AS version FROM schema_migrations").get() as {
    version: number | null;
  };
  return row.version ?? 0;
}

/**
 * Brings the schema up to the last of `migrations`. Idempotent; each step runs
 * in an IMMEDIATE transaction that re-reads the version first, so two processes
 * opening one database at once apply each migration exactly once.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
  now = Date.now(),
): number {
  const latest = migrations.at(-1)?.version ?? 0;
  const found = schemaVersion(db);
  if (found > latest) {
    throw new StoreError(
      "store.schema_too_new",
      `the database has schema version ${found}, newer than this ToolScript knows (${latest}); upgrade ToolScript`,
      { found, latest },
    );
  }
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  for (const migration of migrations) {
    const step = db.transaction(() => {
      if (schemaVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, now);
    });
    try {
      step.immediate();
    } catch (error) {
      throw new StoreError(
        "store.migration_failed",
        `migration ${migration.version} (${migration.name}) failed: ${error instanceof Error ? error.message : String(error)}`,
        { version: migration.version },
        { cause: error },
      );
    }
  }
  return schemaVersion(db);
}
