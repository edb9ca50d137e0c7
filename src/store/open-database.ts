import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { StoreError } from "./errors.ts";

export const DATABASE_FILE = "toolscript.db";
export const MEMORY_LOCATION = ":memory:";
/** How long a write waits for another process's write lock before failing with SQLITE_BUSY. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
/** Truncate the WAL back to this size after a checkpoint, so one large write does not leave it huge. */
const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * - `full`: every commit is fsynced before it returns: nothing acknowledged is
 *   lost on a process crash or a power loss (about 10x slower for small writes).
 * - `normal`: in WAL mode a commit is written to the WAL but fsynced only at
 *   checkpoints: nothing acknowledged is lost on a process crash (`kill -9`);
 *   a power loss can drop the last commits, never corrupt the database.
 */
export type Durability = "full" | "normal";
export const DEFAULT_DURABILITY: Durability = "full";

export interface OpenDatabaseOptions {
  durability?: Durability | undefined;
  busyTimeoutMs?: number | undefined;
}

/** Opens (creating) `<dir>/toolscript.db`, or an in-memory database for `:memory:`, with the store's pragmas. */
export function openDatabase(dir: string, options: OpenDatabaseOptions = {}): Database.Database {
  const memory = dir === MEMORY_LOCATION;
  const file = memory ? MEMORY_LOCATION : join(dir, DATABASE_FILE);
  let db: Database.Database;
  try {
    // 0700: the directory holds other sessions' files and PII vaults.
    if (!memory) mkdirSync(dir, { recursive: true, mode: 0o700 });
    db = new Database(file, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new StoreError(
      "store.open_failed",
      `cannot open the store at ${file}: ${error instanceof Error ? error.message : String(error)}`,
      { file },
      { cause: error },
    );
  }
  try {
    if (!memory) {
      // SQLite gives the -wal and -shm files the database file's mode.
      chmodSync(file, 0o600);
      const mode = db.pragma("journal_mode = WAL", { simple: true });
      if (mode !== "wal") throw new Error(`journal_mode is ${String(mode)}, WAL not supported here`);
      db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    }
    db.pragma(`synchronous = ${(options.durability ?? DEFAULT_DURABILITY) === "full" ? "FULL" : "NORMAL"}`);
    db.pragma("foreign_keys = ON");
  } catch (error) {
    db.close();
    throw new StoreError(
      "store.open_failed",
      `cannot open the store at ${file}: ${error instanceof Error ? error.message : String(error)}`,
      { file },
      { cause: error },
    );
  }
  return db;
}
