import assert from "node:assert/strict";
import { it } from "node:test";
import { bytesOf, type ContractTarget, textOf, withStore } from "./contract-target.ts";
import { entry } from "./records-contract.ts";

const ROOMY = { maxTotalBytes: 1_000_000, maxFiles: 1_000 };

/** Sessions: touch, claim, get, list, delete (with everything a session owns), idle expiry. */
export function sessionContract(target: ContractTarget): void {
  it("touch creates a session, then marks it seen; the TTL changes only when given", () =>
    withStore(target, async (store, clock) => {
      const created = await store.sessions.touch("s1", 5_000);
      assert.deepEqual(created, {
        id: "s1",
        createdAt: clock.time,
        lastSeenAt: clock.time,
        idleTtlMs: 5_000,
        fileCount: 0,
        totalBytes: 0,
        owner: null,
      });
      clock.advance(10);
      const seen = await store.sessions.touch("s1");
      assert.equal(seen.createdAt, created.createdAt);
      assert.equal(seen.lastSeenAt, clock.time);
      assert.equal(seen.idleTtlMs, 5_000, "kept when omitted");
      assert.equal((await store.sessions.touch("s1", null)).idleTtlMs, null, "cleared by null");
      assert.deepEqual(await store.sessions.get("s1"), { ...seen, idleTtlMs: null });
      assert.equal(await store.sessions.get("nope"), undefined);
    }));

  it("list returns every session, most recently seen first", () =>
    withStore(target, async (store, clock) => {
      await store.sessions.touch("old");
      clock.advance(5);
      await store.sessions.touch("new");
      assert.deepEqual(
        (await store.sessions.list()).map((session) => session.id),
        ["new", "old"],
      );
    }));

  it("claim creates for its owner, touches for the same owner, refuses another", () =>
    withStore(target, async (store, clock) => {
      const created = await store.sessions.claim("s1", "alice");
      assert.equal(created?.owner, "alice");
      clock.advance(7);
      assert.equal((await store.sessions.claim("s1", "alice"))?.lastSeenAt, clock.time);
      clock.advance(7);
      assert.equal(await store.sessions.claim("s1", "bob"), undefined);
      assert.equal(await store.sessions.claim("s1", null), undefined);
      assert.equal((await store.sessions.get("s1"))?.lastSeenAt, clock.time - 7, "unchanged by the refusals");
      assert.equal((await store.sessions.claim("local", null))?.owner, null);
      assert.ok(await store.sessions.claim("local", null), "null owners are the same local client");
      // A session touched (made before owners existed, or by the local client) is the local client's.
      await store.sessions.touch("old");
      assert.equal(await store.sessions.claim("old", "alice"), undefined);
      assert.equal((await store.sessions.claim("old", null))?.owner, null);
    }));

  it("claim is atomic: ten clients claiming one new id at once, one wins", () =>
    withStore(target, async (store) => {
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.sessions.claim("contested", `client-${i}`)),
      );
      const winners = claims.filter((claim) => claim !== undefined);
      assert.equal(winners.length, 1);
      assert.equal((await store.sessions.get("contested"))?.owner, winners[0]?.owner);
    }));

  it("delete removes the session with its files, vault and private skills; shared skills and audit stay", () =>
    withStore(target, async (store) => {
      await store.sessions.writeFile("s1", "a.txt", bytesOf("a"), ROOMY);
      await store.vaults.put("s1", bytesOf("vault"), undefined);
      await store.skills.save({ ...skill("mine"), session: "s1", visibility: "private" });
      await store.skills.save({ ...skill("ours"), session: "s1", visibility: "shared" });
      await store.audit.append([entry(1_000)]);
      assert.equal(await store.sessions.delete("s1"), true);
      assert.equal(await store.sessions.get("s1"), undefined);
      assert.equal(await store.sessions.readFile("s1", "a.txt"), undefined);
      assert.equal(await store.vaults.get("s1"), undefined);
      assert.equal(await store.skills.get("mine", { includePrivate: true }), undefined);
      assert.deepEqual(await store.skills.versions("mine", { includePrivate: true }), []);
      assert.equal(
        (await store.skills.get("ours"))?.authorSession,
        "s1",
        "a shared skill outlives its author",
      );
      assert.equal(
        (await store.audit.list({ session: "s1" })).length,
        1,
        "the audit trail outlives the session",
      );
      assert.equal(await store.sessions.delete("s1"), false);
    }));

  it("deleteIdle removes sessions idle past their own TTL or the default, with what they own", () =>
    withStore(target, async (store, clock) => {
      await store.sessions.touch("default");
      await store.sessions.touch("short", 1_000);
      await store.sessions.touch("long", 100_000);
      await store.sessions.writeFile("short", "a.txt", bytesOf("a"), ROOMY);
      await store.vaults.put("short", bytesOf("vault"), undefined);
      await store.skills.save({ ...skill("short-lived"), session: "short", visibility: "private" });
      clock.advance(5_000);
      await store.sessions.touch("fresh");
      assert.deepEqual((await store.sessions.deleteIdle(10_000)).sort(), ["short"]);
      assert.equal(await store.sessions.readFile("short", "a.txt"), undefined);
      assert.equal(await store.vaults.get("short"), undefined);
      assert.equal(await store.skills.get("short-lived", { includePrivate: true }), undefined);
      clock.advance(6_000);
      assert.deepEqual((await store.sessions.deleteIdle(10_000)).sort(), ["default"]);
      assert.deepEqual((await store.sessions.list()).map((s) => s.id).sort(), ["fresh", "long"]);
    }));
}

/** Workspace files: read, list, write with its quota and tree checks, remove. */
export function fileContract(target: ContractTarget): void {
  it("writes, reads, lists (by folder) and removes files, keeping usage counters", () =>
    withStore(target, async (store, clock) => {
      const binary = new Uint8Array([0, 255, 1, 0, 128]);
      assert.deepEqual(await store.sessions.writeFile("s1", "dir/bin", binary, ROOMY), {
        ok: true,
        info: { path: "dir/bin", size: 5, mtime: clock.time },
      });
      await store.sessions.writeFile("s1", "dir/sub/x.txt", bytesOf("xx"), ROOMY);
      await store.sessions.writeFile("s1", "dir0", bytesOf("z"), ROOMY);
      await store.sessions.writeFile("s1", "a.txt", bytesOf("hello"), ROOMY);
      const read = await store.sessions.readFile("s1", "dir/bin");
      assert.deepEqual(read && { ...read, bytes: [...read.bytes] }, {
        path: "dir/bin",
        size: 5,
        mtime: clock.time,
        bytes: [0, 255, 1, 0, 128],
      });
      assert.equal(await store.sessions.readFile("s1", "missing"), undefined);
      assert.deepEqual(
        (await store.sessions.listFiles("s1")).map((f) => f.path),
        ["a.txt", "dir/bin", "dir/sub/x.txt", "dir0"],
      );
      assert.deepEqual(
        (await store.sessions.listFiles("s1", "dir")).map((f) => f.path),
        ["dir/bin", "dir/sub/x.txt"],
      );
      assert.deepEqual(await store.sessions.listFiles("s1", "a.txt"), [
        { path: "a.txt", size: 5, mtime: clock.time },
      ]);
      let session = await store.sessions.get("s1");
      assert.deepEqual([session?.fileCount, session?.totalBytes], [4, 13]);
      clock.advance(3);
      await store.sessions.writeFile("s1", "a.txt", bytesOf("hi"), ROOMY);
      assert.equal(await store.sessions.removeFile("s1", "dir0"), true);
      assert.equal(await store.sessions.removeFile("s1", "dir0"), false);
      assert.equal(textOf((await store.sessions.readFile("s1", "a.txt"))?.bytes), "hi");
      session = await store.sessions.get("s1");
      assert.deepEqual([session?.fileCount, session?.totalBytes], [3, 9]);
    }));

  it("scopes every file query by session", () =>
    withStore(target, async (store) => {
      await store.sessions.writeFile("a", "secret.txt", bytesOf("A"), ROOMY);
      assert.equal(await store.sessions.readFile("b", "secret.txt"), undefined);
      assert.deepEqual(await store.sessions.listFiles("b"), []);
      assert.equal(await store.sessions.removeFile("b", "secret.txt"), false);
      await store.sessions.writeFile("b", "secret.txt", bytesOf("B"), ROOMY);
      assert.equal(textOf((await store.sessions.readFile("a", "secret.txt"))?.bytes), "A");
      assert.equal(textOf((await store.sessions.readFile("b", "secret.txt"))?.bytes), "B");
    }));

  it("refuses growth past the byte and file quotas, still allows shrinking", () =>
    withStore(target, async (store) => {
      const limits = { maxTotalBytes: 10, maxFiles: 2 };
      assert.equal((await store.sessions.writeFile("s1", "a", bytesOf("12345678"), limits)).ok, true);
      assert.deepEqual(await store.sessions.writeFile("s1", "b", bytesOf("123"), limits), {
        ok: false,
        reason: "total_bytes",
        used: 8,
        limit: 10,
        needed: 3,
      });
      assert.equal((await store.sessions.writeFile("s1", "b", bytesOf("12"), limits)).ok, true);
      assert.deepEqual(await store.sessions.writeFile("s1", "c", bytesOf(""), limits), {
        ok: false,
        reason: "file_count",
        used: 2,
        limit: 2,
      });
      const lowered = { maxTotalBytes: 5, maxFiles: 2 };
      assert.equal((await store.sessions.writeFile("s1", "a", bytesOf("1234567"), lowered)).ok, true);
      assert.equal((await store.sessions.listFiles("s1")).length, 2, "refused writes left nothing");
    }));

  it("refuses a file where a folder is, and a folder where a file is", () =>
    withStore(target, async (store) => {
      await store.sessions.writeFile("s1", "docs/readme.md", bytesOf("r"), ROOMY);
      await store.sessions.writeFile("s1", "notes", bytesOf("n"), ROOMY);
      assert.deepEqual(await store.sessions.writeFile("s1", "docs", bytesOf("x"), ROOMY), {
        ok: false,
        reason: "is_directory",
        conflict: "docs/readme.md",
      });
      assert.deepEqual(await store.sessions.writeFile("s1", "notes/today/a.md", bytesOf("x"), ROOMY), {
        ok: false,
        reason: "parent_is_file",
        conflict: "notes",
      });
    }));

  it("twenty parallel writers never exceed the quota", () =>
    withStore(target, async (store) => {
      const limits = { maxTotalBytes: 1_000, maxFiles: 100 };
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.sessions.writeFile("s1", `f${i}`, new Uint8Array(100), limits),
        ),
      );
      assert.equal(outcomes.filter((outcome) => outcome.ok).length, 10);
      const files = await store.sessions.listFiles("s1");
      const stored = files.reduce((sum, file) => sum + file.size, 0);
      assert.equal(stored, 1_000);
      const session = await store.sessions.get("s1");
      assert.deepEqual([session?.totalBytes, session?.fileCount], [1_000, 10]);
    }));
}

/** A skill input with what every save needs. */
export function skill(name: string, code = `export const ${name.replace(/-/g, "_")} = 1;`) {
  return { name, code, description: `${name} does things`, declaration: "declare const x: number;" };
}
