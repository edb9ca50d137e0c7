import assert from "node:assert/strict";
import { it } from "node:test";
import type { StoreChange } from "../domains.ts";
import type { SkillOrigin } from "../types.ts";
import { type ContractTarget, hasCode, withStore } from "./contract-target.ts";
import { skill } from "./sessions-contract.ts";

/** Skills: versions, visibility, removal, change notices, concurrent saves. */
export function skillContract(target: ContractTarget): void {
  it("saves versions and reads the latest, one version, every version and the list", () =>
    withStore(target, async (store, clock) => {
      const origin: SkillOrigin = {
        kind: "generated",
        task: "sum numbers",
        argNames: ["a", "b"],
        provider: "anthropic",
        model: "m",
        repaired: false,
        expiresAt: clock.time + 1_000,
      };
      const first = await store.skills.save({ ...skill("adder"), language: "python", origin });
      assert.deepEqual(first, {
        ...skill("adder"),
        version: 1,
        language: "python",
        authorSession: null,
        visibility: "shared",
        ownerSession: null,
        createdAt: clock.time,
        origin,
      });
      clock.advance(1);
      const second = await store.skills.save({ ...skill("adder", "export const v = 2;"), session: "s1" });
      assert.deepEqual(
        [second.version, second.language, second.authorSession, second.origin],
        [2, "typescript", "s1", null],
      );
      await store.skills.save(skill("beta"));
      assert.deepEqual(await store.skills.get("adder"), second);
      assert.deepEqual(await store.skills.get("adder", { version: 1 }), first);
      assert.equal(await store.skills.get("adder", { version: 3 }), undefined);
      assert.equal(await store.skills.get("nope"), undefined);
      assert.deepEqual(
        (await store.skills.versions("adder")).map((v) => v.version),
        [1, 2],
      );
      assert.deepEqual(
        (await store.skills.list()).map((v) => [v.name, v.version]),
        [
          ["adder", 2],
          ["beta", 1],
        ],
      );
    }));

  it("a private skill is seen by its session (and the operator) only", () =>
    withStore(target, async (store) => {
      await store.skills.save({ ...skill("secret"), session: "s1", visibility: "private" });
      await store.skills.save(skill("public"));
      assert.equal((await store.skills.get("secret", { session: "s1" }))?.ownerSession, "s1");
      assert.equal(await store.skills.get("secret", { session: "s2" }), undefined);
      assert.equal(await store.skills.get("secret", { session: "s2", version: 1 }), undefined);
      assert.equal(await store.skills.get("secret"), undefined);
      assert.equal((await store.skills.get("secret", { includePrivate: true }))?.visibility, "private");
      assert.deepEqual(
        (await store.skills.list({ session: "s2" })).map((v) => v.name),
        ["public"],
      );
      assert.deepEqual(
        (await store.skills.list({ session: "s1" })).map((v) => v.name),
        ["public", "secret"],
      );
      assert.deepEqual(await store.skills.versions("secret", { session: "s2" }), []);
      assert.equal((await store.skills.save({ ...skill("secret"), session: "s1" })).visibility, "private");
    }));

  it("a private skill stays private on a new version until its owner shares it; shared, it outlives its author", () =>
    withStore(target, async (store) => {
      await store.skills.save({ ...skill("mine"), session: "s1", visibility: "private" });
      assert.equal((await store.skills.save({ ...skill("mine"), session: "s1" })).visibility, "private");
      const shared = await store.skills.save({ ...skill("mine"), session: "s1", visibility: "shared" });
      assert.deepEqual([shared.visibility, shared.ownerSession, shared.version], ["shared", null, 3]);
      assert.equal((await store.skills.get("mine", { session: "s2" }))?.version, 3);
      assert.equal(await store.sessions.delete("s1"), true);
      assert.equal((await store.skills.get("mine"))?.version, 3);
    }));

  it("refuses a taken private name, a shared skill made private, a private one without session, a bad name", () =>
    withStore(target, async (store) => {
      await store.skills.save({ ...skill("mine"), session: "s1", visibility: "private" });
      await store.skills.save(skill("open"));
      await assert.rejects(
        store.skills.save({ ...skill("mine"), session: "s2" }),
        hasCode("skill.name_taken"),
      );
      await assert.rejects(store.skills.save(skill("mine")), hasCode("skill.name_taken"), "no session");
      await assert.rejects(
        store.skills.save({ ...skill("open"), session: "s1", visibility: "private" }),
        hasCode("skill.visibility"),
      );
      await assert.rejects(
        store.skills.save({ ...skill("lone"), visibility: "private" }),
        hasCode("skill.visibility"),
      );
      // Names become import paths.
      for (const name of ["", "../x", "no/slash", "1abc", "a.b", "x".repeat(65), "naïve"]) {
        await assert.rejects(
          store.skills.save(skill(name, "export const x = 1;")),
          hasCode("skill.bad_name"),
          name,
        );
      }
      assert.equal((await store.skills.save(skill("fetch_issues-2"))).version, 1);
      assert.equal(
        (await store.skills.versions("mine", { includePrivate: true })).length,
        1,
        "nothing written",
      );
    }));

  it("remove deletes every version of what the viewer sees, and says when nothing was", () =>
    withStore(target, async (store) => {
      await store.skills.save({ ...skill("mine"), session: "s1", visibility: "private" });
      await store.skills.save(skill("open"));
      await store.skills.save(skill("open"));
      assert.equal(await store.skills.remove("mine", { session: "s2" }), false);
      assert.equal(await store.skills.remove("mine", { session: "s1" }), true);
      assert.equal(await store.skills.remove("open"), true);
      assert.deepEqual(await store.skills.versions("open"), []);
      assert.equal(await store.skills.get("open", { version: 1 }), undefined);
      assert.equal(await store.skills.remove("open"), false);
      assert.equal((await store.skills.save(skill("open"))).version, 1, "the name is free again: version 1");
      await store.skills.save({ ...skill("theirs"), session: "s3", visibility: "private" });
      assert.equal(await store.skills.remove("theirs", { includePrivate: true }), true);
    }));

  it("tells its listeners of saves and removals; a removed listener hears nothing", async () =>
    withStore(target, async (store) => {
      const heard: StoreChange[] = [];
      const ignored: StoreChange[] = [];
      store.onChange((change) => heard.push(change));
      store.onChange((change) => ignored.push(change))();
      await store.skills.save(skill("told"));
      await store.skills.remove("told");
      await store.skills.remove("told");
      await waitFor(() => heard.length >= 2);
      assert.deepEqual(heard, [
        { domain: "skills", name: "told", action: "saved" },
        { domain: "skills", name: "told", action: "removed" },
      ]);
      assert.deepEqual(ignored, []);
    }));

  it("deleting a session (or its expiry) tells listeners its private skills are gone", async () =>
    withStore(target, async (store, clock) => {
      await store.skills.save({ ...skill("kept"), session: "s1" });
      await store.skills.save({ ...skill("first"), session: "s1", visibility: "private" });
      await store.skills.save({ ...skill("second"), session: "s1", visibility: "private" });
      await store.skills.save({ ...skill("idle"), session: "s2", visibility: "private" });
      await store.sessions.touch("s2", 1_000);
      const heard: StoreChange[] = [];
      // Only removals: notices of the saves above may still be arriving (PostgreSQL).
      store.onChange((change) => change.action === "removed" && heard.push(change));
      assert.equal(await store.sessions.delete("s1"), true);
      clock.advance(2_000);
      assert.deepEqual(await store.sessions.deleteIdle(60_000), ["s2"]);
      await waitFor(() => heard.length >= 3);
      assert.deepEqual(heard, [
        { domain: "skills", name: "first", action: "removed" },
        { domain: "skills", name: "second", action: "removed" },
        { domain: "skills", name: "idle", action: "removed" },
      ]);
      assert.equal((await store.skills.get("kept"))?.name, "kept");
    }));

  it("ten parallel saves of one skill get versions 1 to 10", () =>
    withStore(target, async (store) => {
      const saved = await Promise.all(Array.from({ length: 10 }, () => store.skills.save(skill("busy"))));
      assert.deepEqual(
        saved.map((v) => v.version).sort((a, b) => a - b),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
      assert.equal((await store.skills.get("busy"))?.version, 10);
    }));
}

/** Waits (bounded) until `done()`: notices may arrive asynchronously. */
export async function waitFor(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  // Give a notice that should not come a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 50));
}
