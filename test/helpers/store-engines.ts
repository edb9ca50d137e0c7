import { after } from "node:test";
import type { SharedStore } from "../../src/store/domains.ts";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { openMemorySharedStore } from "../../src/store/sqlite-shared-store.ts";
import { type PostgresCluster, startPostgres } from "./postgres-cluster.ts";

/** One engine of the shared store, opened fresh (an empty database) for each test. */
export interface StoreEngine {
  readonly name: "SQLite" | "PostgreSQL";
  /** A new store on a new, empty database; `now` is its clock. */
  open(options?: { now?: () => number }): Promise<SharedStore>;
  /** A new empty PostgreSQL database's URL (replica tests open several stores on it); PostgreSQL only. */
  database?(): Promise<string>;
}

/**
 * SQLite in memory and PostgreSQL, for suites that must hold on both. Call it
 * at the top level of a test file: the file's one PostgreSQL cluster starts
 * with the first store opened on it and stops after the file's tests.
 */
export function storeEngines(prefix: string): StoreEngine[] {
  let cluster: Promise<PostgresCluster> | undefined;
  let databases = 0;
  after(async () => {
    if (cluster) await (await cluster).stop();
  });
  const database = async () => {
    cluster ??= startPostgres();
    return (await cluster).createDatabase(`${prefix}_${++databases}`);
  };
  return [
    { name: "SQLite", open: async (options = {}) => openMemorySharedStore(options) },
    {
      name: "PostgreSQL",
      open: async (options = {}) => openPostgresStore({ url: await database(), ...options }),
      database,
    },
  ];
}

/** Opens a store on `engine`, runs `fn`, and closes it whatever happens. */
export async function withEngineStore(
  engine: StoreEngine,
  fn: (store: SharedStore) => Promise<void>,
  options: { now?: () => number } = {},
): Promise<void> {
  const store = await engine.open(options);
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}
