import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { tempDir } from "../../test/helpers/servers.ts";
import { migrate, schemaVersion } from "./migrate.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.ts";
import { DATABASE_FILE } from "./open-database.ts";
import { openMemoryStore, openStore } from "./sqlite-store.ts";

function clock(start = 1_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

describe("Store: OAuth credentials", () => {
  it("stores one blob per server, replaces it, lists names and times (never blobs) and deletes", () => {
    const time = clock();
    const store = openMemoryStore({ now: time.now });
    try {
      assert.equal(store.getCredential("github"), undefined);
      assert.deepEqual(store.listCredentials(), []);

      store.putCredential("notion", new Uint8Array([1, 2, 3]));
      time.state.now = 2_000;
      store.putCredential("github", new Uint8Array([4]));
      time.state.now = 3_000;
      store.putCredential("github", new Uint8Array([5, 6]));

      assert.deepEqual(store.getCredential("github"), new Uint8Array([5, 6]));
      assert.deepEqual(store.getCredential("notion"), new Uint8Array([1, 2, 3]));
      assert.deepEqual(store.listCredentials(), [
        { server: "github", updatedAt: 3_000 },
        { server: "notion", updatedAt: 1_000 },
      ]);

      assert.equal(store.deleteCredential("github"), true);
      assert.equal(store.deleteCredential("github"), false, "already gone");
      assert.equal(store.getCredential("github"), undefined);
      assert.deepEqual(
        store.listCredentials().map((c) => c.server),
        ["notion"],
      );
    } finally {
      store.close();
    }
  });

  it("are not tied to sessions: no session is created, and deleting sessions keeps them", () => {
    const store = openMemoryStore();
    try {
      store.putCredential("github", new Uint8Array([1]));
      assert.deepEqual(store.listSessions(), []);
      store.touchSession("s");
      store.deleteSession("s");
      assert.equal(store.deleteIdleSessions(0).length, 0);
      assert.deepEqual(store.getCredential("github"), new Uint8Array([1]));
    } finally {
      store.close();
    }
  });

  it("survive closing and reopening the same data directory", () => {
    const dir = tempDir("credentials");
    try {
      const first = openStore({ dir: dir.path });
      first.putCredential("github", new Uint8Array([7, 8, 9]));
      first.close();
      const second = openStore({ dir: dir.path });
      try {
        assert.deepEqual(second.getCredential("github"), new Uint8Array([7, 8, 9]));
        assert.deepEqual(
          second.listCredentials().map((c) => c.server),
          ["github"],
        );
      } finally {
        second.close();
      }
    } finally {
      dir.remove();
    }
  });

  it("migration 6 upgrades a version 5 database, keeping its data", () => {
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

      const store = openStore({ dir: dir.path });
      try {
        assert.equal(new TextDecoder().decode(store.readFile("a", "x.txt")?.bytes), "abc");
        assert.deepEqual(store.getVault("a"), new Uint8Array([1, 2]));
        assert.deepEqual(store.listCredentials(), []);
        store.putCredential("github", new Uint8Array([3]));
        assert.deepEqual(store.getCredential("github"), new Uint8Array([3]));
      } finally {
        store.close();
      }
      const check = new Database(join(dir.path, DATABASE_FILE));
      assert.equal(schemaVersion(check), SCHEMA_VERSION);
      assert.ok(SCHEMA_VERSION >= 6);
      check.close();
    } finally {
      dir.remove();
    }
  });
});
