import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tempDir } from "../../test/helpers/servers.ts";
import { openMemoryStore, openStore } from "../store/sqlite-store.ts";
import { WorkspaceError } from "./errors.ts";
import { SessionManager } from "./session-manager.ts";

function setup(quotas = {}) {
  const store = openMemoryStore();
  const sessions = new SessionManager(store, { sweepIntervalMs: 0, quotas });
  return { store, sessions, close: () => store.close() };
}

function workspaceError(code: string, message: RegExp) {
  return (error: unknown) =>
    error instanceof WorkspaceError && error.code === code && message.test(error.message);
}

describe("Workspace", () => {
  it("reads and writes text and bytes", () => {
    const { sessions, close } = setup();
    const ws = sessions.workspace("a");
    const info = ws.writeFile("notes/hello.txt", "héllo ✓");
    assert.equal(info.path, "notes/hello.txt");
    assert.equal(info.size, Buffer.byteLength("héllo ✓"));
    assert.equal(ws.readFile("notes/hello.txt"), "héllo ✓");
    assert.equal(ws.readFile("./notes/hello.txt", "utf8"), "héllo ✓", "normalised paths name the same file");
    assert.deepEqual(ws.readFile("notes/hello.txt", "bytes"), new TextEncoder().encode("héllo ✓"));

    const binary = new Uint8Array([0, 255, 128, 7]);
    ws.writeFile("data.bin", binary);
    assert.deepEqual(ws.readFile("data.bin", "bytes"), binary);
    assert.throws(
      () => ws.readFile("data.bin"),
      workspaceError(
        "workspace.not_text",
        /"data\.bin" is not UTF-8 text; read it with readFile\(path, "bytes"\)/,
      ),
    );
    ws.writeFile("empty.txt", "");
    assert.equal(ws.readFile("empty.txt"), "");
    // A non-string, non-bytes value is a programming error, not silently stringified.
    assert.throws(() => ws.writeFile("x", { a: 1 } as unknown as string), TypeError);
    close();
  });

  it("lists folders and removes files", () => {
    const { sessions, close } = setup();
    const ws = sessions.workspace("a");
    ws.writeFile("b/1.txt", "1");
    ws.writeFile("b/c/2.txt", "22");
    ws.writeFile("bz.txt", "3");
    assert.deepEqual(
      ws.list().map((f) => f.path),
      ["b/1.txt", "b/c/2.txt", "bz.txt"],
    );
    assert.deepEqual(
      ws.list("b/").map((f) => f.path),
      ["b/1.txt", "b/c/2.txt"],
    );
    assert.deepEqual(
      ws.list("b/c").map((f) => [f.path, f.size]),
      [["b/c/2.txt", 2]],
    );
    ws.remove("b/1.txt");
    assert.throws(() => ws.readFile("b/1.txt"), workspaceError("workspace.not_found", /no file "b\/1\.txt"/));
    assert.throws(() => ws.remove("b/1.txt"), workspaceError("workspace.not_found", /no file "b\/1\.txt"/));
    assert.deepEqual(ws.usage().files, 2);
    close();
  });

  it("isolates sessions: A cannot read, list, overwrite or remove B's files", () => {
    const { sessions, close } = setup();
    const a = sessions.workspace("a");
    const b = sessions.workspace("b");
    b.writeFile("secret.txt", "B's secret");
    assert.throws(() => a.readFile("secret.txt"), workspaceError("workspace.not_found", /secret\.txt/));
    assert.deepEqual(a.list(), []);
    assert.throws(() => a.remove("secret.txt"), workspaceError("workspace.not_found", /secret\.txt/));
    // Paths cannot climb out of the session either.
    assert.throws(
      () => a.readFile("../b/secret.txt"),
      workspaceError("workspace.bad_path", /"\.\." segments/),
    );
    assert.throws(() => a.readFile("/b/secret.txt"), workspaceError("workspace.bad_path", /absolute/));
    a.writeFile("secret.txt", "A's own");
    assert.equal(b.readFile("secret.txt"), "B's secret");
    assert.equal(a.readFile("secret.txt"), "A's own");
    close();
  });

  it("refuses writes past each quota with a message naming the path and the limit", () => {
    const { sessions, close } = setup({ maxFileBytes: 100, maxTotalBytes: 150, maxFiles: 3 });
    const ws = sessions.workspace("a");
    assert.throws(
      () => ws.writeFile("big.bin", new Uint8Array(101)),
      workspaceError("workspace.quota", /cannot write "big\.bin": 101 B is over the 100 B per-file quota/),
    );
    ws.writeFile("one", new Uint8Array(100));
    assert.throws(
      () => ws.writeFile("two", new Uint8Array(60)),
      workspaceError(
        "workspace.quota",
        /cannot write "two": the workspace would hold 160 B, over its 150 B quota \(100 B used\)/,
      ),
    );
    ws.writeFile("two", new Uint8Array(50));
    ws.writeFile("three", "");
    assert.throws(
      () => ws.writeFile("four", ""),
      workspaceError(
        "workspace.quota",
        /cannot write "four": the workspace already holds 3 files, its quota is 3/,
      ),
    );
    ws.writeFile("one", new Uint8Array(10));
    ws.remove("three");
    assert.equal(ws.writeFile("four", new Uint8Array(10)).size, 10, "room again after removing");
    assert.deepEqual([ws.usage().files, ws.usage().bytes], [3, 70]);
    close();
  });

  it("reports quota errors with structured data", () => {
    const { sessions, close } = setup({ maxFiles: 1 });
    const ws = sessions.workspace("a");
    ws.writeFile("a", "");
    try {
      ws.writeFile("./b", "");
      assert.fail("should throw");
    } catch (error) {
      assert.ok(error instanceof WorkspaceError);
      assert.deepEqual(error.data, { path: "./b", quota: "file_count", used: 1, limit: 1 });
    }
    close();
  });

  it("refuses files over folders and under files", () => {
    const { sessions, close } = setup();
    const ws = sessions.workspace("a");
    ws.writeFile("dir/file.txt", "x");
    assert.throws(
      () => ws.writeFile("dir", "x"),
      workspaceError(
        "workspace.bad_path",
        /cannot write "dir": it is a folder \(it holds "dir\/file\.txt"\)/,
      ),
    );
    assert.throws(
      () => ws.writeFile("dir/file.txt/inner", "x"),
      workspaceError("workspace.bad_path", /"dir\/file\.txt" is a file, not a folder/),
    );
    close();
  });

  it("persists across a store reopen (gateway restart) via the session manager", () => {
    const dir = tempDir("workspace");
    try {
      const first = openStore({ dir: dir.path });
      new SessionManager(first, { sweepIntervalMs: 0 }).workspace("s").writeFile("keep.txt", "kept");
      first.close();
      const second = openStore({ dir: dir.path });
      assert.equal(
        new SessionManager(second, { sweepIntervalMs: 0 }).workspace("s").readFile("keep.txt"),
        "kept",
      );
      second.close();
    } finally {
      dir.remove();
    }
  });
});
