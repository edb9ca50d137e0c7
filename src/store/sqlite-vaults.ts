import { randomUUID } from "node:crypto";
import type { Database, Statement, Transaction } from "better-sqlite3";
import type { StoredVault } from "./domains.ts";
import { asBytes } from "./rows.ts";
import type { StoreWriter } from "./writer.ts";

/**
 * PII vaults in SQLite with compare-and-set writes: each put runs in one
 * IMMEDIATE transaction (the write lock serializes the check and the write),
 * so it holds for every process on the data directory.
 */
export class SqliteVaults {
  readonly #now: () => number;
  readonly #get: Statement<[string], { blob: Uint8Array; revision: string }>;
  readonly #revision: Statement<[string], { revision: string }>;
  readonly #put: Transaction<
    (session: string, blob: Uint8Array, expected: string | undefined) => string | undefined
  >;

  constructor(db: Database, writer: StoreWriter, now: () => number) {
    this.#now = now;
    this.#get = db.prepare("SELECT blob, revision FROM vaults WHERE session_id = ?");
    this.#revision = db.prepare("SELECT revision FROM vaults WHERE session_id = ?");
    const insert = db.prepare<[string, Uint8Array, number, string]>(
      "INSERT INTO vaults (session_id, blob, updated_at, revision) VALUES (?, ?, ?, ?) ON CONFLICT (session_id) DO NOTHING",
    );
    const update = db.prepare<[Uint8Array, number, string, string, string]>(
      "UPDATE vaults SET blob = ?, updated_at = ?, revision = ? WHERE session_id = ? AND revision = ?",
    );
    this.#put = db.transaction((session, blob, expected) => {
      writer.touchSession(session);
      const revision = randomUUID();
      const written =
        expected === undefined
          ? insert.run(session, blob, this.#now(), revision)
          : update.run(blob, this.#now(), revision, session, expected);
      return written.changes > 0 ? revision : undefined;
    });
  }

  get(session: string): StoredVault | undefined {
    const row = this.#get.get(session);
    return row && { blob: asBytes(row.blob), revision: row.revision };
  }

  revision(session: string): string | undefined {
    return this.#revision.get(session)?.revision;
  }

  put(session: string, blob: Uint8Array, expected: string | undefined): string | undefined {
    return this.#put.immediate(session, blob, expected);
  }
}
