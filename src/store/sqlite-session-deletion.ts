import type { Database, Statement } from "better-sqlite3";
import type { StoreWriter } from "./writer.ts";

/** What deleting sessions removed: their ids, and the private skills that went with them. */
export interface DeletedSessions {
  ids: string[];
  skills: string[];
}

/**
 * Deletes sessions through the writer and says which private skills went with
 * them (ON DELETE CASCADE), so the shared store can tell its listeners those
 * skills are gone, as the PostgreSQL store tells every replica.
 */
export class SqliteSessionDeletion {
  readonly #writer: StoreWriter;
  readonly #now: () => number;
  readonly #owned: Statement<[string], { name: string }>;
  readonly #idle: Statement<[number, number], { id: string }>;

  constructor(db: Database, writer: StoreWriter, now: () => number) {
    this.#writer = writer;
    this.#now = now;
    this.#owned = db.prepare("SELECT name FROM skills WHERE owner_session = ? ORDER BY name");
    // Idle: unseen for longer than the session's TTL, or the default one.
    this.#idle = db.prepare(
      "SELECT id FROM sessions WHERE last_seen_at + coalesce(idle_ttl_ms, ?) < ? ORDER BY id",
    );
  }

  delete(id: string): DeletedSessions {
    return this.#writer.transaction(() => {
      const skills = this.#owned.all(id).map((row) => row.name);
      if (!this.#writer.deleteSession(id)) return { ids: [], skills: [] };
      return { ids: [id], skills };
    });
  }

  deleteIdle(defaultIdleTtlMs: number): DeletedSessions {
    return this.#writer.transaction(() => {
      const ids = this.#idle.all(defaultIdleTtlMs, this.#now()).map((row) => row.id);
      const skills: string[] = [];
      for (const id of ids) {
        skills.push(...this.#owned.all(id).map((row) => row.name));
        this.#writer.deleteSession(id);
      }
      return { ids, skills };
    });
  }
}
