import assert from "node:assert/strict";
import { it } from "node:test";
import type { SharedStore } from "../domains.ts";
import { bytesOf, type ContractTarget, nextChange, withPair } from "./contract-target.ts";
import { skill } from "./sessions-contract.ts";

/** Two stores on one database, as two replicas: what one writes the other reads, limits hold across both. */
export function replicaContract(
  target: ContractTarget,
  openPair: (now: () => number) => Promise<[SharedStore, SharedStore]>,
): void {
  it("a skill saved through one store is read through the other at once", () =>
    withPair(openPair, async (a, b) => {
      await a.skills.save(skill("handed"));
      assert.equal((await b.skills.get("handed"))?.version, 1);
      assert.equal((await b.skills.save(skill("handed"))).version, 2);
      assert.equal(await a.skills.remove("handed"), true);
      assert.equal(await b.skills.get("handed"), undefined);
    }));

  if (target.sharesChanges) {
    it("each store hears the other's skill saves and removals, and its own", () =>
      withPair(openPair, async (a, b) => {
        const bHearsSave = nextChange(b, (change) => "name" in change && change.action === "saved");
        const aHearsOwn = nextChange(a, (change) => "name" in change && change.action === "saved");
        await a.skills.save(skill("told"));
        assert.deepEqual(await bHearsSave, { domain: "skills", name: "told", action: "saved" });
        assert.deepEqual(await aHearsOwn, { domain: "skills", name: "told", action: "saved" });
        const aHearsRemoval = nextChange(a, (change) => "name" in change && change.action === "removed");
        await b.skills.remove("told");
        assert.deepEqual(await aHearsRemoval, { domain: "skills", name: "told", action: "removed" });
      }));
  }

  it("ten saves split across both stores get versions 1 to 10", () =>
    withPair(openPair, async (a, b) => {
      const saved = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).skills.save(skill("busy"))),
      );
      assert.deepEqual(
        saved.map((v) => v.version).sort((x, y) => x - y),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
    }));

  it("a quota holds across writers on both stores", () =>
    withPair(openPair, async (a, b) => {
      const limits = { maxTotalBytes: 500, maxFiles: 100 };
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).sessions.writeFile("s1", `f${i}`, new Uint8Array(50), limits),
        ),
      );
      assert.equal(outcomes.filter((outcome) => outcome.ok).length, 10);
      assert.equal((await b.sessions.get("s1"))?.totalBytes, 500);
    }));

  it("a session claimed through one store is refused to another owner through the other", () =>
    withPair(openPair, async (a, b) => {
      const [one, two] = await Promise.all([a.sessions.claim("s1", "alice"), b.sessions.claim("s1", "bob")]);
      assert.equal([one, two].filter((claim) => claim !== undefined).length, 1);
    }));

  it("vaults: two stores writing over one revision at once, or both creating the first, one wins", () =>
    withPair(openPair, async (a, b) => {
      const created = await Promise.all([
        a.vaults.put("s1", bytesOf("a"), undefined),
        b.vaults.put("s1", bytesOf("b"), undefined),
      ]);
      assert.equal(created.filter((revision) => revision !== undefined).length, 1);
      const base = created.find((revision) => revision !== undefined);
      for (let round = 0; round < 5; round++) {
        const current = round === 0 ? base : await a.vaults.revision("s1");
        const written = await Promise.all([
          a.vaults.put("s1", bytesOf(`a${round}`), current),
          b.vaults.put("s1", bytesOf(`b${round}`), current),
        ]);
        assert.equal(written.filter((revision) => revision !== undefined).length, 1, `round ${round}`);
        assert.equal(
          await b.vaults.revision("s1"),
          written.find((revision) => revision !== undefined),
        );
      }
    }));

  it("a rate limit is shared by both stores", () =>
    withPair(openPair, async (a, b, clock) => {
      assert.equal((await a.rateLimits.take("client:x", 3)).ok, true);
      assert.equal((await b.rateLimits.take("client:x", 3)).ok, true);
      clock.advance(1_000);
      assert.equal((await a.rateLimits.take("client:x", 3)).ok, true);
      assert.deepEqual(await b.rateLimits.take("client:x", 3), { ok: false, retryInMs: 59_000 });
      assert.deepEqual(await a.rateLimits.take("client:x", 3), { ok: false, retryInMs: 59_000 });
    }));

  it("audit records written through both stores are listed through either, by replica", () =>
    withPair(openPair, async (a, b) => {
      const record = (time: number, replica: string) => ({
        time,
        session: "s1",
        server: "fs",
        tool: "read",
        argsDigest: "d",
        argsBytes: 2,
        outcome: "ok",
        durationMs: 1,
        replica,
      });
      const [started] = await Promise.all([
        a.audit.appendNow({ ...record(1_000, "a:1"), outcome: "started" }),
        b.audit.append([record(2_000, "b:2")]),
      ]);
      await b.audit.write({ complete: [{ id: started, entry: record(1_000, "a:1") }], append: [] });
      for (const store of [a, b]) {
        assert.deepEqual(
          (await store.audit.list()).map((r) => [r.replica, r.outcome]),
          [
            ["b:2", "ok"],
            ["a:1", "ok"],
          ],
        );
        assert.deepEqual(
          (await store.audit.list({ replica: "a:1" })).map((r) => r.time),
          [1_000],
        );
      }
    }));
}
