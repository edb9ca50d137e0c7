import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../../test/helpers/servers.ts";
import { StoreError } from "./errors.ts";
import { DATABASE_FILE } from "./open-database.ts";
import { openSqliteSharedStore } from "./sqlite-shared-store.ts";

// What only the SQLite engine does: its files on disk. Semantics are the contract suite's.
describe("SqliteSharedStore on disk", () => {
  it("persists everything across close and reopen, in a private directory", async () => {
    const dir = tempDir("store");
    try {
      const path = join(dir.path, "data");
      const first = openSqliteSharedStore({ dir: path });
      const limits = { maxTotalBytes: 1_000, maxFiles: 5 };
      await first.sessions.writeFile("a", "notes/one.txt", new TextEncoder().encode("hello"), limits);
      await first.vaults.put("a", new Uint8Array([9, 8, 7]), undefined);
      await first.credentials.put("github", new Uint8Array([7, 8, 9]));
      await first.skills.save({
        name: "greet",
        code: "export const g = 1;",
        description: "Greets.",
        declaration: "d",
      });
      await first.audit.append([
        {
          time: 1,
          session: "a",
          server: "fs",
          tool: "read",
          argsDigest: "d",
          argsBytes: 2,
          outcome: "ok",
          durationMs: 1.5,
        },
      ]);
      await first.close();
      await first.close(); // idempotent

      assert.equal(statSync(path).mode & 0o777, 0o700);
      assert.equal(statSync(join(path, DATABASE_FILE)).mode & 0o777, 0o600);

      const second = openSqliteSharedStore({ dir: path });
      try {
        const file = await second.sessions.readFile("a", "notes/one.txt");
        assert.equal(new TextDecoder().decode(file?.bytes), "hello");
        assert.deepEqual((await second.vaults.get("a"))?.blob, new Uint8Array([9, 8, 7]));
        assert.deepEqual(await second.credentials.get("github"), new Uint8Array([7, 8, 9]));
        assert.deepEqual(
          (await second.credentials.list()).map((c) => c.server),
          ["github"],
        );
        assert.equal((await second.skills.get("greet"))?.description, "Greets.");
        assert.equal((await second.audit.list()).length, 1);
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  });

  it("reports store.open_failed naming the file", async () => {
    const dir = tempDir("store-bad");
    try {
      // A directory where the database file should be.
      const path = join(dir.path, "x");
      await openSqliteSharedStore({ dir: path }).close();
      assert.throws(
        () => openSqliteSharedStore({ dir: join(path, DATABASE_FILE) }),
        (error: unknown) =>
          error instanceof StoreError && error.code === "store.open_failed" && error.message.includes(path),
      );
    } finally {
      dir.remove();
    }
  });
});
