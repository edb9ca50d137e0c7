import type pg from "pg";
import { StoreError } from "../errors.ts";
import type { Migration } from "../migrations.ts";
import { POSTGRES_MIGRATIONS } from "./migrations.ts";
import { isUnreachable } from "./unreachable.ts";

/**
 * The session-level advisory lock migrations run under ("tsmg"): replicas
 * starting together take turns, and each finds what the other applied.
 */
export const MIGRATION_LOCK = 0x74736d67;

const VERSION_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at bigint NOT NULL
  )`;

/** The highest applied migration, 0 for an empty database. */
export async function postgresSchemaVersion(client: pg.ClientBase): Promise<number> {
  const result = await client.query<{ version: number | null }>(
    "SELECT max(version) AS version FROM schema_migrations",
  );
  return result.rows[0]?.version ?? 0;
}

/**
 * Brings the schema up to the last of `migrations` on `client`'s database,
 * holding `MIGRATION_LOCK` throughout; each migration runs in its own
 * transaction with its row in `schema_migrations`. Returns the version reached.
 */
export async function migratePostgres(
  client: pg.ClientBase,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
  now = Date.now(),
): Promise<number> {
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  } catch (error) {
    if (isUnreachable(error)) throw error;
    // The statement timeout ended the wait: another replica has been migrating for that long.
    throw new StoreError(
      "store.migration_failed",
      `waiting for another replica's migrations failed: ${error instanceof Error ? error.message : String(error)}`,
      {},
      { cause: error },
    );
  }
  try {
    await client.query(VERSION_TABLE);
    const latest = migrations.at(-1)?.version ?? 0;
    const found = await postgresSchemaVersion(client);
    if (found > latest) {
      throw new StoreError(
        "store.schema_too_new",
        `the database has schema version ${found}, newer than this ToolScript knows (${latest}); upgrade ToolScript`,
        { found, latest },
      );
    }
    for (const migration of migrations) {
      if (migration.version <= found) continue;
      await apply(client, migration, now);
    }
    return await postgresSchemaVersion(client);
  } finally {
    // Also released when the connection ends; a failure here must not hide the real one.
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
  }
}

async function apply(client: pg.ClientBase, migration: Migration, now: number): Promise<void> {
  try {
    await client.query("BEGIN");
    await client.query(migration.sql);
    await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [
      migration.version,
      migration.name,
      now,
    ]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    // A dropped connection is not a faulty migration: the caller reports it as unreachable.
    if (isUnreachable(error)) throw error;
    throw new StoreError(
      "store.migration_failed",
      `migration ${migration.version} (${migration.name}) failed: ${error instanceof Error ? error.message : String(error)}`,
      { version: migration.version },
      { cause: error },
    );
  }
}
