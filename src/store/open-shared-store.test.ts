import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { openSharedStore } from "./open-shared-store.ts";

describe("openSharedStore", () => {
  it("opens SQLite in storage.dir when no url is set", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolscript-open-"));
    try {
      const store = await openSharedStore({ dir });
      assert.equal(store.engine, "sqlite");
      assert.equal(store.location, join(dir, "toolscript.db"));
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("opens PostgreSQL when url is set (unreachable here: a refused loopback port)", async () => {
    await assert.rejects(
      openSharedStore({ dir: "/unused", url: "postgres://u:pw@127.0.0.1:1/db" }),
      (error: Error) =>
        (error as { code?: string }).code === "store.unreachable" && !error.message.includes(":pw@"),
    );
  });
});
