import assert from "node:assert/strict";
import { it } from "node:test";
import type { AuditEntry } from "../types.ts";
import { bytesOf, type ContractTarget, hasCode, textOf, withStore } from "./contract-target.ts";

/** Vaults and credentials: opaque blobs by key. */
export function blobContract(target: ContractTarget): void {
  it("vaults: put (creating the session), replace over the stored revision, get, delete", () =>
    withStore(target, async (store) => {
      assert.equal(await store.vaults.revision("s1"), undefined);
      const first = await store.vaults.put("s1", bytesOf("one"), undefined);
      assert.ok(first, "the first vault is written");
      assert.ok(await store.sessions.get("s1"), "the session exists");
      assert.equal(await store.vaults.revision("s1"), first);
      const second = await store.vaults.put("s1", new Uint8Array([0, 1, 2, 255]), first);
      assert.ok(second && second !== first, "a write makes a new revision");
      assert.deepEqual(await store.vaults.get("s1"), {
        blob: new Uint8Array([0, 1, 2, 255]),
        revision: second,
      });
      assert.equal(await store.vaults.get("s2"), undefined);
      assert.equal(await store.vaults.delete("s1"), true);
      assert.equal(await store.vaults.delete("s1"), false);
      assert.equal(await store.vaults.get("s1"), undefined);
      assert.equal(await store.vaults.revision("s1"), undefined);
    }));

  it("vaults: a put over a revision that is not the stored one writes nothing", () =>
    withStore(target, async (store) => {
      const first = await store.vaults.put("s1", bytesOf("one"), undefined);
      assert.equal(await store.vaults.put("s1", bytesOf("again"), undefined), undefined, "not new any more");
      const second = await store.vaults.put("s1", bytesOf("two"), first);
      assert.equal(await store.vaults.put("s1", bytesOf("stale"), first), undefined, "a stale revision");
      assert.equal(await store.vaults.put("s1", bytesOf("made up"), "x"), undefined);
      assert.equal(await store.vaults.put("s2", bytesOf("absent"), "x"), undefined, "no vault to replace");
      assert.equal(await store.vaults.get("s2"), undefined);
      assert.deepEqual(await store.vaults.get("s1"), { blob: bytesOf("two"), revision: second });
      // Deleted and made again: the old revision does not match the new vault.
      await store.sessions.delete("s1");
      const remade = await store.vaults.put("s1", bytesOf("new"), undefined);
      assert.equal(await store.vaults.put("s1", bytesOf("old copy"), second), undefined);
      assert.deepEqual(await store.vaults.get("s1"), { blob: bytesOf("new"), revision: remade });
    }));

  it("vaults: of ten puts over one revision at once, exactly one is written", () =>
    withStore(target, async (store) => {
      const base = await store.vaults.put("s1", bytesOf("base"), undefined);
      const revisions = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.vaults.put("s1", bytesOf(`v${i}`), base)),
      );
      const won = revisions.flatMap((revision, i) => (revision === undefined ? [] : [{ revision, i }]));
      assert.equal(won.length, 1);
      assert.deepEqual(await store.vaults.get("s1"), {
        blob: bytesOf(`v${won[0]?.i}`),
        revision: won[0]?.revision,
      });
    }));

  it("credentials: put, replace, get, list by name without blobs, delete", () =>
    withStore(target, async (store, clock) => {
      await store.credentials.put("zeta", bytesOf("z"));
      clock.advance(5);
      await store.credentials.put("alpha", bytesOf("a1"));
      await store.credentials.put("alpha", bytesOf("a2"));
      assert.equal(textOf(await store.credentials.get("alpha")), "a2");
      assert.equal(await store.credentials.get("beta"), undefined);
      assert.deepEqual(await store.credentials.list(), [
        { server: "alpha", updatedAt: clock.time },
        { server: "zeta", updatedAt: clock.time - 5 },
      ]);
      assert.equal(await store.credentials.delete("zeta"), true);
      assert.equal(await store.credentials.delete("zeta"), false);
      assert.deepEqual(
        (await store.credentials.list()).map((c) => c.server),
        ["alpha"],
      );
    }));

  it("credentials are not tied to sessions: none is created, and deleting sessions keeps them", () =>
    withStore(target, async (store, clock) => {
      await store.credentials.put("github", bytesOf("g"));
      assert.deepEqual(await store.sessions.list(), []);
      await store.sessions.touch("s");
      assert.equal(await store.sessions.delete("s"), true);
      await store.sessions.touch("idle", 1);
      clock.advance(10);
      assert.deepEqual(await store.sessions.deleteIdle(1), ["idle"]);
      assert.equal(textOf(await store.credentials.get("github")), "g");
    }));
}

/** An audit record of session s1, with `fields` over it. */
export function entry(time: number, fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time,
    session: "s1",
    server: "github",
    tool: "search",
    argsDigest: "ab12",
    argsBytes: 42,
    outcome: "ok",
    durationMs: 12.5,
    ...fields,
  };
}

/** Audit records: batch append, update, filtered listing, prune, the journal. */
export function auditContract(target: ContractTarget): void {
  it("appends a batch with ids in order and reads every field back", () =>
    withStore(target, async (store) => {
      const full: AuditEntry = {
        ...entry(1_000),
        kind: "execution",
        client: "alice",
        bytesOut: 2_048,
        policy: "approve",
        detail: { codeHash: "f00", limits: ["memory"], nested: { n: 1 } },
        replica: "host-a:4242",
      };
      const ids = await store.audit.append([full, entry(2_000)]);
      assert.equal(ids.length, 2);
      assert.ok(ids[0]! < ids[1]!);
      const [second, first] = await store.audit.list();
      assert.deepEqual(first, { id: ids[0], ...full });
      assert.deepEqual(second, {
        id: ids[1],
        ...entry(2_000),
        kind: "tool_call",
        client: null,
        bytesOut: null,
        policy: null,
        detail: null,
        replica: null,
      });
      assert.deepEqual(await store.audit.append([]), []);
    }));

  it("update completes records and says which ids were not there", () =>
    withStore(target, async (store) => {
      const [id] = await store.audit.append([entry(1_000, { outcome: "started" })]);
      const done = {
        outcome: "ToolError",
        durationMs: 99,
        bytesOut: 7,
        policy: "allow",
        detail: { why: "x" },
      };
      assert.deepEqual(
        await store.audit.update([
          { id: id!, update: done },
          { id: id! + 1_000, update: done },
        ]),
        [true, false],
      );
      const [record] = await store.audit.list();
      assert.deepEqual(record, {
        ...entry(1_000),
        kind: "tool_call",
        client: null,
        replica: null,
        id,
        ...done,
      });
    }));

  it("appendNow commits one record and returns its id", () =>
    withStore(target, async (store) => {
      const id = await store.audit.appendNow(entry(1_000, { outcome: "started", replica: "r1" }));
      const [record] = await store.audit.list();
      assert.equal(record?.id, id);
      assert.equal(record?.outcome, "started");
      assert.equal(record?.replica, "r1");
    }));

  it("write completes, appends whole the completions whose record is gone, appends, in one batch", () =>
    withStore(target, async (store) => {
      const [started, pruned] = await store.audit.append([
        entry(2_500, { tool: "running", outcome: "started" }),
        entry(500, { tool: "pruned", outcome: "started" }),
      ]);
      assert.equal(await store.audit.prune(1_000), 1);
      const ids = await store.audit.write({
        complete: [
          {
            id: started!,
            entry: entry(2_500, { tool: "running", outcome: "ok", durationMs: 3, bytesOut: 9 }),
          },
          { id: pruned!, entry: entry(2_000, { tool: "pruned", outcome: "ToolError" }) },
        ],
        append: [entry(3_000, { tool: "new-a" }), entry(3_000, { tool: "new-b" })],
      });
      assert.equal(ids.length, 2);
      assert.ok(ids[0]! < ids[1]!);
      const records = await store.audit.list();
      assert.deepEqual(
        records.map((record) => [record.tool, record.outcome]),
        [
          ["new-b", "ok"],
          ["new-a", "ok"],
          ["running", "ok"],
          ["pruned", "ToolError"],
        ],
      );
      assert.deepEqual([records[2]?.id, records[2]?.durationMs, records[2]?.bytesOut], [started, 3, 9]);
      assert.deepEqual(
        records.slice(0, 2).map((record) => record.id),
        [ids[1], ids[0]],
      );
      assert.deepEqual(await store.audit.write({ complete: [], append: [] }), []);
      const [kept] = await store.audit.append([entry(4_000, { tool: "kept", outcome: "started" })]);
      await store.audit.write({
        complete: [{ id: kept!, entry: entry(4_000, { tool: "kept", outcome: "ok", durationMs: 7 }) }],
        append: [],
      });
      const [completed] = await store.audit.list({ limit: 1 });
      assert.deepEqual([completed?.id, completed?.outcome, completed?.durationMs], [kept, "ok", 7]);
    }));

  it("append and write are all or nothing: one record the database refuses leaves the batch unwritten", () =>
    withStore(target, async (store) => {
      const [started] = await store.audit.append([entry(1_000, { outcome: "started" })]);
      // A record without a server: refused by the column's NOT NULL.
      const refused = { ...entry(2_000), server: null } as unknown as AuditEntry;
      await assert.rejects(store.audit.append([entry(1_500), refused]));
      await assert.rejects(
        store.audit.write({
          complete: [{ id: started!, entry: entry(1_000, { outcome: "ok", durationMs: 5 }) }],
          append: [entry(1_500), refused],
        }),
      );
      assert.deepEqual(
        (await store.audit.list()).map((record) => [record.id, record.outcome]),
        [[started, "started"]],
        "neither the appends nor the completion were kept",
      );
    }));

  it("lists by session, client, time and denial, newest first, up to a limit", () =>
    withStore(target, async (store) => {
      await store.audit.append([
        entry(1_000, { session: "s1", client: "alice" }),
        entry(2_000, { session: "s2", client: "bob", outcome: "policy.denied" }),
        entry(3_000, { session: "s1", client: "bob", outcome: "policy.declined" }),
        entry(4_000, { session: null }),
      ]);
      const times = async (query: Parameters<typeof store.audit.list>[0]) =>
        (await store.audit.list(query)).map((record) => record.time);
      assert.deepEqual(await times({}), [4_000, 3_000, 2_000, 1_000]);
      assert.deepEqual(await times({ session: "s1" }), [3_000, 1_000]);
      assert.deepEqual(await times({ client: "bob" }), [3_000, 2_000]);
      assert.deepEqual(await times({ since: 2_000 }), [4_000, 3_000, 2_000]);
      assert.deepEqual(await times({ denied: true }), [3_000, 2_000]);
      assert.deepEqual(await times({ limit: 2 }), [4_000, 3_000]);
      assert.deepEqual(await times({ session: "s1", denied: true, since: 1_500 }), [3_000]);
    }));

  it("lists by kind (anomaly alerts, executions) and by the replica that wrote them", () =>
    withStore(target, async (store) => {
      await store.audit.append([
        entry(1_000, { replica: "a:1" }),
        entry(2_000, { kind: "anomaly", tool: "call_burst", replica: "b:2" }),
        entry(3_000, { kind: "execution", replica: "a:1" }),
        entry(4_000, { kind: "anomaly", tool: "exfiltration", replica: "a:1" }),
        entry(5_000),
      ]);
      const times = async (query: Parameters<typeof store.audit.list>[0]) =>
        (await store.audit.list(query)).map((record) => record.time);
      assert.deepEqual(await times({ kind: "anomaly" }), [4_000, 2_000]);
      assert.deepEqual(await times({ kind: "execution" }), [3_000]);
      assert.deepEqual(await times({ kind: "tool_call" }), [5_000, 1_000]);
      assert.deepEqual(await times({ replica: "a:1" }), [4_000, 3_000, 1_000]);
      assert.deepEqual(await times({ replica: "b:2", kind: "anomaly" }), [2_000]);
      assert.deepEqual(await times({ replica: "c:3" }), []);
    }));

  it("prune deletes records older than a time and counts them", () =>
    withStore(target, async (store) => {
      await store.audit.append([entry(1_000), entry(2_000), entry(3_000)]);
      assert.equal(await store.audit.prune(2_500), 2);
      assert.equal(await store.audit.prune(2_500), 0);
      assert.deepEqual(
        (await store.audit.list()).map((r) => r.time),
        [3_000],
      );
    }));

  it(`openJournal ${target.keepsJournal ? "returns a journal on local disk" : "returns undefined"}`, () =>
    withStore(target, async (store) => {
      const journal = store.audit.openJournal();
      assert.equal(journal !== undefined, target.keepsJournal);
      journal?.close();
    }));
}

/** Caches with an expiry, and rate windows. */
export function expiryContract(target: ContractTarget): void {
  it("caches: get until the TTL passes, replace, delete the expired ones", () =>
    withStore(target, async (store, clock) => {
      await store.caches.put("answers", "k1", "v1", 1_000);
      await store.caches.put("answers", "k2", "v2", 5_000);
      await store.caches.put("tools", "k1", "other", 1_000);
      assert.equal(await store.caches.get("answers", "k1"), "v1");
      assert.equal(await store.caches.get("tools", "k1"), "other");
      assert.equal(await store.caches.get("answers", "k3"), undefined);
      clock.advance(1_000);
      assert.equal(await store.caches.get("answers", "k1"), undefined, "expired at its TTL");
      assert.equal(await store.caches.deleteExpired(), 2);
      await store.caches.put("answers", "k2", "v2b", 10);
      assert.equal(await store.caches.get("answers", "k2"), "v2b");
      await assert.rejects(store.caches.put("answers", "k", "v", 0), RangeError);
    }));

  it("rate limits: at most perMinute in any 60 s, retry when the oldest leaves, keys apart", () =>
    withStore(target, async (store, clock) => {
      assert.deepEqual(await store.rateLimits.take("client:a", 3), { ok: true });
      clock.advance(20_000);
      assert.deepEqual(await store.rateLimits.take("client:a", 3), { ok: true });
      clock.advance(20_000);
      assert.deepEqual(await store.rateLimits.take("client:a", 3), { ok: true });
      assert.deepEqual(await store.rateLimits.take("client:b", 3), { ok: true }, "another key");
      clock.advance(19_000);
      assert.deepEqual(await store.rateLimits.take("client:a", 3), { ok: false, retryInMs: 1_000 });
      clock.advance(999);
      assert.deepEqual(await store.rateLimits.take("client:a", 3), { ok: false, retryInMs: 1 });
      clock.advance(1);
      assert.deepEqual(await store.rateLimits.take("client:a", 3), { ok: true }, "the oldest left");
      assert.deepEqual(await store.rateLimits.take("client:a", 3), { ok: false, retryInMs: 20_000 });
      await assert.rejects(store.rateLimits.take("client:a", 0), RangeError);
    }));

  it("rate limits: a lowered limit waits until enough events left, not just the oldest", () =>
    withStore(target, async (store, clock) => {
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await store.rateLimits.take("upstream:y", 3), { ok: true });
        clock.advance(10_000);
      }
      // Events at 0, 10 and 20 s; now 30 s. Two per minute: one more must leave, the one at 10 s.
      assert.deepEqual(await store.rateLimits.take("upstream:y", 2), { ok: false, retryInMs: 40_000 });
      clock.advance(40_000);
      assert.deepEqual(await store.rateLimits.take("upstream:y", 2), { ok: true });
    }));

  it("ten parallel takes of a window of five: five slots", () =>
    withStore(target, async (store) => {
      const takes = await Promise.all(
        Array.from({ length: 10 }, () => store.rateLimits.take("upstream:x", 5)),
      );
      assert.equal(takes.filter((take) => take.ok).length, 5);
    }));
}

/** ping, and every domain after close. */
export function lifecycleContract(target: ContractTarget): void {
  it("ping resolves while open; after close every domain rejects with store.closed", async () => {
    const store = await target.open(Date.now);
    await store.ping();
    assert.equal(typeof store.location, "string");
    assert.ok(!store.location.includes(":secret@"), "no password in the location");
    await store.close();
    await store.close();
    const closed = hasCode("store.closed");
    await assert.rejects(store.ping(), closed);
    await assert.rejects(store.sessions.touch("s1"), closed);
    await assert.rejects(store.skills.list(), closed);
    await assert.rejects(store.vaults.get("s1"), closed);
    await assert.rejects(store.credentials.list(), closed);
    await assert.rejects(store.audit.list(), closed);
    await assert.rejects(store.caches.get("n", "k"), closed);
    await assert.rejects(store.rateLimits.take("k", 1), closed);
  });
}
