import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../../test/helpers/servers.ts";
import { StoreError } from "./errors.ts";
import { DATABASE_FILE } from "./open-database.ts";
import { openMemoryStore, openStore } from "./sqlite-store.ts";
import type { AuditEntry } from "./types.ts";

const LIMITS = { maxTotalBytes: 1_000, maxFiles: 5 };
const bytes = (text: string) => new TextEncoder().encode(text);

function clock(start = 1_000_000) {
  const state = { now: start };
  return { state, now: () => state.now };
}

function audit(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time: 1,
    session: "a",
    server: "fs",
    tool: "read",
    argsDigest: "d",
    argsBytes: 2,
    outcome: "ok",
    durationMs: 1.5,
    ...overrides,
  };
}

describe("SqliteStore", () => {
  it("persists everything across close and reopen, in a private directory", () => {
    const dir = tempDir("store");
    try {
      const path = join(dir.path, "data");
      const first = openStore({ dir: path });
      first.writeFile("a", "notes/one.txt", bytes("hello"), LIMITS);
      first.putVault("a", new Uint8Array([9, 8, 7]));
      first.saveSkill({
        name: "greet",
        code: "export const g = 1;",
        description: "Greets.",
        declaration: "d",
      });
      first.appendAudit(audit());
      first.close();
      first.close(); // idempotent

      assert.equal(statSync(path).mode & 0o777, 0o700);
      assert.equal(statSync(join(path, DATABASE_FILE)).mode & 0o777, 0o600);

      const second = openStore({ dir: path });
      try {
        assert.equal(new TextDecoder().decode(second.readFile("a", "notes/one.txt")?.bytes), "hello");
        assert.deepEqual(second.getVault("a"), new Uint8Array([9, 8, 7]));
        assert.equal(second.getSkill("greet")?.description, "Greets.");
        assert.equal(second.listAudit().length, 1);
      } finally {
        second.close();
      }
    } finally {
      dir.remove();
    }
  });

  it("shares one data directory between two open stores (two gateways), WAL readers never blocked", () => {
    const dir = tempDir("store-two");
    try {
      const one = openStore({ dir: dir.path });
      const two = openStore({ dir: dir.path });
      one.writeFile("a", "from-one", bytes("1"), LIMITS);
      two.writeFile("a", "from-two", bytes("22"), LIMITS);
      assert.deepEqual(
        one.listFiles("a").map((f) => f.path),
        ["from-one", "from-two"],
      );
      assert.equal(one.getSession("a")?.totalBytes, 3, "counters updated under the write lock by both");
      two.saveSkill({ name: "s", code: "1", description: "d", declaration: "" });
      assert.equal(one.saveSkill({ name: "s", code: "2", description: "d", declaration: "" }).version, 2);
      one.close();
      two.close();
    } finally {
      dir.remove();
    }
  });

  it("throws store.closed after close", () => {
    const store = openMemoryStore();
    store.close();
    assert.throws(
      () => store.getSession("a"),
      (error: unknown) => error instanceof StoreError && error.code === "store.closed",
    );
  });

  it("reports store.open_failed naming the file", () => {
    const dir = tempDir("store-bad");
    try {
      // A directory where the database file should be.
      const path = join(dir.path, "x");
      openStore({ dir: path }).close();
      assert.throws(
        () => openStore({ dir: join(path, DATABASE_FILE) }),
        (error: unknown) => error instanceof StoreError && error.code === "store.open_failed",
      );
    } finally {
      dir.remove();
    }
  });

  it("touches sessions: created once, last seen moves, TTL policy kept unless given", () => {
    const time = clock();
    const store = openMemoryStore({ now: time.now });
    const created = store.touchSession("a", 5_000);
    assert.deepEqual(created, {
      id: "a",
      createdAt: 1_000_000,
      lastSeenAt: 1_000_000,
      idleTtlMs: 5_000,
      fileCount: 0,
      totalBytes: 0,
      owner: null,
    });
    time.state.now += 10;
    const touched = store.touchSession("a");
    assert.equal(touched.createdAt, 1_000_000);
    assert.equal(touched.lastSeenAt, 1_000_010);
    assert.equal(touched.idleTtlMs, 5_000);
    assert.equal(store.touchSession("a", null).idleTtlMs, null);
    assert.equal(store.getSession("zzz"), undefined);
    store.close();
  });

  it("expires idle sessions by their own TTL or the default, with all their data", () => {
    const time = clock();
    const store = openMemoryStore({ now: time.now });
    store.touchSession("short", 1_000);
    store.touchSession("default");
    store.writeFile("short", "f.txt", bytes("x"), LIMITS);
    store.putVault("short", new Uint8Array([1]));
    store.saveSkill({
      name: "mine",
      code: "c",
      description: "d",
      declaration: "",
      session: "short",
      visibility: "private",
    });
    store.saveSkill({ name: "ours", code: "c", description: "d", declaration: "", session: "short" });
    store.appendAudit(audit({ session: "short" }));

    time.state.now += 1_001;
    assert.deepEqual(store.deleteIdleSessions(60_000), ["short"]);
    assert.equal(store.getSession("short"), undefined);
    assert.deepEqual(store.listFiles("short"), []);
    assert.equal(store.getVault("short"), undefined);
    assert.equal(store.getSkill("mine", { includePrivate: true }), undefined, "private skill removed");
    assert.equal(store.listSkillVersions("mine", { includePrivate: true }).length, 0);
    assert.equal(store.getSkill("ours")?.authorSession, "short", "shared skill outlives its author");
    assert.equal(store.listAudit({ session: "short" }).length, 1, "the audit trail outlives the session");
    assert.ok(store.getSession("default"));

    time.state.now += 60_000;
    assert.deepEqual(store.deleteIdleSessions(60_000), ["default"]);
    store.close();
  });

  it("writes, overwrites, lists and removes files, keeping usage counters exact", () => {
    const store = openMemoryStore();
    assert.equal(store.writeFile("a", "b/c.txt", bytes("12345"), LIMITS).ok, true);
    assert.equal(store.writeFile("a", "b/d.txt", bytes("12"), LIMITS).ok, true);
    assert.equal(store.writeFile("a", "bb.txt", bytes("1"), LIMITS).ok, true);
    assert.equal(store.writeFile("a", "b/c.txt", bytes("123"), LIMITS).ok, true);
    assert.deepEqual([store.getSession("a")?.fileCount, store.getSession("a")?.totalBytes], [3, 6]);
    assert.deepEqual(
      store.listFiles("a", "b").map((f) => f.path),
      ["b/c.txt", "b/d.txt"],
      "a folder, not a string prefix: bb.txt is not in b",
    );
    assert.deepEqual(
      store.listFiles("a").map((f) => [f.path, f.size]),
      [
        ["b/c.txt", 3],
        ["b/d.txt", 2],
        ["bb.txt", 1],
      ],
    );
    assert.equal(store.removeFile("a", "b/c.txt"), true);
    assert.equal(store.removeFile("a", "b/c.txt"), false);
    assert.deepEqual([store.getSession("a")?.fileCount, store.getSession("a")?.totalBytes], [2, 3]);
    store.close();
  });

  it("refuses growth past the quotas inside the write transaction, but allows shrinking", () => {
    const store = openMemoryStore();
    const limits = { maxTotalBytes: 10, maxFiles: 2 };
    assert.equal(store.writeFile("a", "one", bytes("123456"), limits).ok, true);
    assert.deepEqual(store.writeFile("a", "two", bytes("12345"), limits), {
      ok: false,
      reason: "total_bytes",
      used: 6,
      limit: 10,
      needed: 5,
    });
    assert.equal(store.writeFile("a", "two", bytes("1234"), limits).ok, true);
    assert.deepEqual(store.writeFile("a", "three", bytes(""), limits), {
      ok: false,
      reason: "file_count",
      used: 2,
      limit: 2,
    });
    // Over a lowered quota, overwriting with less is still allowed.
    assert.equal(store.writeFile("a", "one", bytes("1"), { maxTotalBytes: 3, maxFiles: 1 }).ok, true);
    assert.equal(store.listFiles("a").length, 2, "refused writes left nothing");
    store.close();
  });

  it("keeps the tree a tree: no file under a file, no file over a folder", () => {
    const store = openMemoryStore();
    store.writeFile("a", "x/y.txt", bytes("1"), LIMITS);
    assert.deepEqual(store.writeFile("a", "x", bytes("1"), LIMITS), {
      ok: false,
      reason: "is_directory",
      conflict: "x/y.txt",
    });
    assert.deepEqual(store.writeFile("a", "x/y.txt/z", bytes("1"), LIMITS), {
      ok: false,
      reason: "parent_is_file",
      conflict: "x/y.txt",
    });
    store.close();
  });

  it("scopes every file query by session", () => {
    const store = openMemoryStore();
    store.writeFile("a", "secret.txt", bytes("A"), LIMITS);
    assert.equal(store.readFile("b", "secret.txt"), undefined);
    assert.deepEqual(store.listFiles("b"), []);
    assert.equal(store.removeFile("b", "secret.txt"), false);
    store.writeFile("b", "secret.txt", bytes("B"), LIMITS);
    assert.equal(new TextDecoder().decode(store.readFile("a", "secret.txt")?.bytes), "A");
    store.close();
  });

  it("stores one vault blob per session and replaces it", () => {
    const store = openMemoryStore();
    store.putVault("a", new Uint8Array([1]));
    store.putVault("a", new Uint8Array([2, 3]));
    assert.deepEqual(store.getVault("a"), new Uint8Array([2, 3]));
    assert.equal(store.getVault("b"), undefined);
    assert.equal(store.deleteVault("a"), true);
    assert.equal(store.getVault("a"), undefined);
    store.close();
  });

  it("appends, queries and prunes the audit log", () => {
    const store = openMemoryStore();
    const first = store.appendAudit(audit({ time: 10 }));
    const second = store.appendAudit(audit({ time: 20, session: "b", outcome: "ToolError" }));
    assert.equal(second, first + 1);
    assert.deepEqual(
      store.listAudit().map((e) => e.time),
      [20, 10],
    );
    assert.deepEqual(store.listAudit({ session: "b" })[0], {
      ...audit({ time: 20, session: "b", outcome: "ToolError" }),
      id: second,
      client: null,
      kind: "tool_call",
      bytesOut: null,
      policy: null,
      detail: null,
      replica: null,
    });
    const execution = store.appendAudit({
      ...audit({ time: 30, outcome: "policy.denied" }),
      kind: "execution",
      bytesOut: 12,
      policy: "deny",
      detail: { codeHash: "abc", limitsHit: ["tool_calls"] },
    });
    assert.deepEqual(store.listAudit({ denied: true }), [
      {
        ...audit({ time: 30, outcome: "policy.denied" }),
        id: execution,
        client: null,
        kind: "execution",
        bytesOut: 12,
        policy: "deny",
        detail: { codeHash: "abc", limitsHit: ["tool_calls"] },
        replica: null,
      },
    ]);
    assert.equal(store.pruneAudit(25), 2);
    assert.equal(store.listAudit().length, 1);
    store.close();
  });

  it("claims sessions for their owner: another owner gets nothing and changes nothing", () => {
    const time = clock();
    const store = openMemoryStore({ now: time.now });
    assert.equal(store.claimSession("work", "alice")?.owner, "alice");
    store.writeFile("work", "a.txt", bytes("A"), LIMITS);
    time.state.now += 10;
    assert.equal(store.claimSession("work", "bob"), undefined);
    assert.equal(store.claimSession("work", null), undefined, "the local client is an owner too");
    assert.equal(store.getSession("work")?.lastSeenAt, 1_000_000, "a refused claim does not touch it");
    assert.equal(store.claimSession("work", "alice")?.lastSeenAt, 1_000_010);
    assert.equal(store.getSession("work")?.fileCount, 1);
    // Sessions made before owners existed (or by the local client) stay the local client's.
    store.touchSession("old");
    assert.equal(store.claimSession("old", "alice"), undefined);
    assert.equal(store.claimSession("old", null)?.owner, null);
    store.close();
  });

  it("records and filters the client of audit records", () => {
    const store = openMemoryStore();
    store.appendAudit({ ...audit({ time: 10 }), client: "alice" });
    store.appendAudit(audit({ time: 20 }));
    assert.deepEqual(
      store.listAudit({ client: "alice" }).map((row) => [row.time, row.client]),
      [[10, "alice"]],
    );
    assert.equal(store.listAudit({ since: 15 })[0]?.client, null);
    store.close();
  });

  it("keeps the audit filters apart", () => {
    const store = openMemoryStore();
    store.appendAudit(audit({ time: 10 }));
    store.appendAudit(audit({ time: 20, session: "b", outcome: "ToolError" }));
    assert.equal(store.listAudit({ since: 15 }).length, 1);
    assert.equal(store.listAudit({ limit: 1 }).length, 1);
    assert.equal(store.pruneAudit(15), 1);
    assert.deepEqual(
      store.listAudit().map((e) => e.time),
      [20],
    );
    store.close();
  });

  it("batch commits together or rolls back together", () => {
    const store = openMemoryStore();
    store.batch(() => {
      store.writeFile("a", "1", bytes("1"), LIMITS);
      store.writeFile("a", "2", bytes("2"), LIMITS);
    });
    assert.equal(store.listFiles("a").length, 2);
    assert.throws(() =>
      store.batch(() => {
        store.writeFile("a", "3", bytes("3"), LIMITS);
        throw new Error("abort");
      }),
    );
    assert.equal(store.listFiles("a").length, 2);
    assert.equal(store.getSession("a")?.fileCount, 2);
    store.close();
  });
});
