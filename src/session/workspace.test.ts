import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tempDir } from "../../test/helpers/servers.ts";
import { storeEngines, withEngineStore } from "../../test/helpers/store-engines.ts";
import type { SharedStore } from "../store/domains.ts";
import { openPostgresStore } from "../store/postgres/postgres-store.ts";
import { openSqliteSharedStore } from "../store/sqlite-shared-store.ts";
import { WorkspaceError } from "./errors.ts";
import type { WorkspaceQuotas } from "./quotas.ts";
import { SessionManager } from "./session-manager.ts";

function workspaceError(code: string, message: RegExp) {
  return (error: unknown) =>
    error instanceof WorkspaceError && error.code === code && message.test(error.message);
}

const manager = (store: SharedStore, quotas: Partial<WorkspaceQuotas> = {}) =>
  new SessionManager(store.sessions, { sweepIntervalMs: 0, quotas });

for (const engine of storeEngines("workspace")) {
  describe(`Workspace (${engine.name})`, () => {
    it("reads and writes text and bytes", () =>
      withEngineStore(engine, async (store) => {
        const ws = manager(store).workspace("a");
        const info = await ws.writeFile("notes/hello.txt", "héllo ✓");
        assert.equal(info.path, "notes/hello.txt");
        assert.equal(info.size, Buffer.byteLength("héllo ✓"));
        assert.equal(await ws.readFile("notes/hello.txt"), "héllo ✓");
        assert.equal(
          await ws.readFile("./notes/hello.txt", "utf8"),
          "héllo ✓",
          "normalised paths name the same file",
        );
        assert.deepEqual(await ws.readFile("notes/hello.txt", "bytes"), new TextEncoder().encode("héllo ✓"));

        const binary = new Uint8Array([0, 255, 128, 7]);
        await ws.writeFile("data.bin", binary);
        assert.deepEqual(await ws.readFile("data.bin", "bytes"), binary);
        await assert.rejects(
          ws.readFile("data.bin"),
          workspaceError(
            "workspace.not_text",
            /"data\.bin" is not UTF-8 text; read it with readFile\(path, "bytes"\)/,
          ),
        );
        await ws.writeFile("empty.txt", "");
        assert.equal(await ws.readFile("empty.txt"), "");
        // A non-string, non-bytes value is a programming error, not silently stringified.
        await assert.rejects(ws.writeFile("x", { a: 1 } as unknown as string), TypeError);
      }));

    it("lists folders and removes files", () =>
      withEngineStore(engine, async (store) => {
        const ws = manager(store).workspace("a");
        await ws.writeFile("b/1.txt", "1");
        await ws.writeFile("b/c/2.txt", "22");
        await ws.writeFile("bz.txt", "3");
        assert.deepEqual(
          (await ws.list()).map((f) => f.path),
          ["b/1.txt", "b/c/2.txt", "bz.txt"],
        );
        assert.deepEqual(
          (await ws.list("b/")).map((f) => f.path),
          ["b/1.txt", "b/c/2.txt"],
        );
        assert.deepEqual(
          (await ws.list("b/c")).map((f) => [f.path, f.size]),
          [["b/c/2.txt", 2]],
        );
        await ws.remove("b/1.txt");
        await assert.rejects(
          ws.readFile("b/1.txt"),
          workspaceError("workspace.not_found", /no file "b\/1\.txt"/),
        );
        await assert.rejects(
          ws.remove("b/1.txt"),
          workspaceError("workspace.not_found", /no file "b\/1\.txt"/),
        );
        assert.deepEqual((await ws.usage()).files, 2);
      }));

    it("isolates sessions: A cannot read, list, overwrite or remove B's files", () =>
      withEngineStore(engine, async (store) => {
        const sessions = manager(store);
        const a = sessions.workspace("a");
        const b = sessions.workspace("b");
        await b.writeFile("secret.txt", "B's secret");
        await assert.rejects(a.readFile("secret.txt"), workspaceError("workspace.not_found", /secret\.txt/));
        assert.deepEqual(await a.list(), []);
        await assert.rejects(a.remove("secret.txt"), workspaceError("workspace.not_found", /secret\.txt/));
        // Paths cannot climb out of the session either.
        await assert.rejects(
          a.readFile("../b/secret.txt"),
          workspaceError("workspace.bad_path", /"\.\." segments/),
        );
        await assert.rejects(a.readFile("/b/secret.txt"), workspaceError("workspace.bad_path", /absolute/));
        await a.writeFile("secret.txt", "A's own");
        assert.equal(await b.readFile("secret.txt"), "B's secret");
        assert.equal(await a.readFile("secret.txt"), "A's own");
      }));

    it("refuses writes past each quota with a message naming the path and the limit", () =>
      withEngineStore(engine, async (store) => {
        const ws = manager(store, { maxFileBytes: 100, maxTotalBytes: 150, maxFiles: 3 }).workspace("a");
        await assert.rejects(
          ws.writeFile("big.bin", new Uint8Array(101)),
          workspaceError(
            "workspace.quota",
            /cannot write "big\.bin": 101 B is over the 100 B per-file quota/,
          ),
        );
        await ws.writeFile("one", new Uint8Array(100));
        await assert.rejects(
          ws.writeFile("two", new Uint8Array(60)),
          workspaceError(
            "workspace.quota",
            /cannot write "two": the workspace would hold 160 B, over its 150 B quota \(100 B used\)/,
          ),
        );
        await ws.writeFile("two", new Uint8Array(50));
        await ws.writeFile("three", "");
        await assert.rejects(
          ws.writeFile("four", ""),
          workspaceError(
            "workspace.quota",
            /cannot write "four": the workspace already holds 3 files, its quota is 3/,
          ),
        );
        await ws.writeFile("one", new Uint8Array(10));
        await ws.remove("three");
        assert.equal((await ws.writeFile("four", new Uint8Array(10))).size, 10, "room again after removing");
        const usage = await ws.usage();
        assert.deepEqual([usage.files, usage.bytes], [3, 70]);
      }));

    it("reports quota errors with structured data", () =>
      withEngineStore(engine, async (store) => {
        const ws = manager(store, { maxFiles: 1 }).workspace("a");
        await ws.writeFile("a", "");
        await assert.rejects(ws.writeFile("./b", ""), (error: unknown) => {
          assert.ok(error instanceof WorkspaceError);
          assert.deepEqual(error.data, { path: "./b", quota: "file_count", used: 1, limit: 1 });
          return true;
        });
      }));

    it("refuses files over folders and under files", () =>
      withEngineStore(engine, async (store) => {
        const ws = manager(store).workspace("a");
        await ws.writeFile("dir/file.txt", "x");
        await assert.rejects(
          ws.writeFile("dir", "x"),
          workspaceError(
            "workspace.bad_path",
            /cannot write "dir": it is a folder \(it holds "dir\/file\.txt"\)/,
          ),
        );
        await assert.rejects(
          ws.writeFile("dir/file.txt/inner", "x"),
          workspaceError("workspace.bad_path", /"dir\/file\.txt" is a file, not a folder/),
        );
      }));

    if (engine.database) {
      const database = engine.database;
      it("two stores on one database (replicas) see each other's files at once", async () => {
        const url = await database();
        const [one, two] = [await openPostgresStore({ url }), await openPostgresStore({ url })];
        try {
          const a = manager(one).workspace("s");
          const b = manager(two).workspace("s");
          await a.writeFile("handed.txt", "from one");
          assert.equal(await b.readFile("handed.txt"), "from one");
          await b.remove("handed.txt");
          assert.deepEqual(await a.list(), []);
        } finally {
          await Promise.all([one.close(), two.close()]);
        }
      });
    }
  });
}

describe("Workspace on a data directory", () => {
  it("persists across a store reopen (gateway restart) via the session manager", async () => {
    const dir = tempDir("workspace");
    try {
      const first = openSqliteSharedStore({ dir: dir.path });
      await manager(first).workspace("s").writeFile("keep.txt", "kept");
      await first.close();
      const second = openSqliteSharedStore({ dir: dir.path });
      assert.equal(await manager(second).workspace("s").readFile("keep.txt"), "kept");
      await second.close();
    } finally {
      dir.remove();
    }
  });
});
