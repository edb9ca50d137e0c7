import type { ToolscriptSettings } from "../config/settings.ts";
import type { SharedStore } from "./domains.ts";
import type { Durability } from "./open-database.ts";
import { openPostgresStore } from "./postgres/postgres-store.ts";
import { openSqliteSharedStore } from "./sqlite-shared-store.ts";

export interface OpenSharedStoreOptions {
  /** Told what could not be recovered from audit journals (SQLite), or that a change listener failed. */
  warn?: ((message: string) => void) | undefined;
  /** Clock for timestamps and expiry (tests). */
  now?: (() => number) | undefined;
  /** SQLite only. */
  durability?: Durability | undefined;
}

/**
 * The store `toolscript.storage` names: PostgreSQL when `url` is set (shared
 * by replicas; migrated on open), else SQLite in `dir`.
 */
export async function openSharedStore(
  storage: ToolscriptSettings["storage"],
  options: OpenSharedStoreOptions = {},
): Promise<SharedStore> {
  if (storage.url !== undefined) {
    return openPostgresStore({ url: storage.url, warn: options.warn, now: options.now });
  }
  return openSqliteSharedStore({ dir: storage.dir, ...options });
}
