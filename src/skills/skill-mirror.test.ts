import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SharedStore, StoreChange } from "../store/domains.ts";
import type { SkillVersion } from "../store/types.ts";
import { SkillMirror, visibleTo } from "./skill-mirror.ts";

function version(name: string, n: number, extra: Partial<SkillVersion> = {}): SkillVersion {
  return {
    name,
    version: n,
    code: `export const v = ${n};`,
    description: `${name} v${n}`,
    declaration: "",
    language: "typescript",
    authorSession: null,
    visibility: "shared",
    ownerSession: null,
    createdAt: n,
    origin: null,
    ...extra,
  };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** A store whose skill reads answer when the test says (`gets`, `lists`, in the order they were asked). */
function scriptedStore() {
  const listeners = new Set<(change: StoreChange) => void>();
  const gets: Array<{ name: string; answer: Deferred<SkillVersion | undefined> }> = [];
  const lists: Array<Deferred<SkillVersion[]>> = [];
  const store = {
    skills: {
      get(name: string) {
        const answer = deferred<SkillVersion | undefined>();
        gets.push({ name, answer });
        return answer.promise;
      },
      list() {
        const answer = deferred<SkillVersion[]>();
        lists.push(answer);
        return answer.promise;
      },
    },
    onChange(listener: (change: StoreChange) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as SharedStore;
  const tell = (change: StoreChange) => {
    for (const listener of listeners) listener(change);
  };
  return { store, gets, lists, tell, listeners };
}

function mirrorOf() {
  const changes: Array<[string, number | undefined]> = [];
  const warnings: string[] = [];
  const mirror = new SkillMirror({
    onChanged: (name, skill) => changes.push([name, skill?.version]),
    warn: (message) => warnings.push(message),
  });
  return { mirror, changes, warnings };
}

/** Attaches `mirror` to `scripted`, answering its first full load with `skills`. */
async function attached(
  mirror: SkillMirror,
  scripted: ReturnType<typeof scriptedStore>,
  skills: SkillVersion[],
) {
  const attaching = mirror.attach(scripted.store);
  scripted.lists[0]?.resolve(skills);
  await attaching;
}

describe("SkillMirror", () => {
  it("filters by viewer as the store does: shared to all, private to its owner, everything to the operator", () => {
    const shared = version("a", 1);
    const mine = version("b", 1, { visibility: "private", ownerSession: "s1", authorSession: "s1" });
    assert.equal(visibleTo(shared), true);
    assert.equal(visibleTo(mine), false);
    assert.equal(visibleTo(mine, { session: null }), false);
    assert.equal(visibleTo(mine, { session: "s2" }), false);
    assert.equal(visibleTo(mine, { session: "s1" }), true);
    assert.equal(visibleTo(mine, { includePrivate: true }), true);
  });

  it("loads on attach, lists by name in code-unit order, and tells each skill it learns of", async () => {
    const scripted = scriptedStore();
    const { mirror, changes } = mirrorOf();
    await attached(mirror, scripted, [version("b", 2), version("B", 1), version("a", 1)]);
    assert.deepEqual(
      mirror.list().map((skill) => skill.name),
      ["B", "a", "b"],
    );
    assert.equal(mirror.get("b")?.version, 2);
    assert.deepEqual(changes.sort(), [
      ["B", 1],
      ["a", 1],
      ["b", 2],
    ]);
  });

  it("a failed first load rejects and leaves it detached (no listener kept)", async () => {
    const scripted = scriptedStore();
    const { mirror } = mirrorOf();
    const attaching = mirror.attach(scripted.store);
    scripted.lists[0]?.reject(new Error("store down"));
    await assert.rejects(attaching, /store down/);
    assert.equal(mirror.store, undefined);
    assert.equal(scripted.listeners.size, 0);
  });

  it("an older read that answers last does not overwrite a newer one", async () => {
    const scripted = scriptedStore();
    const { mirror, changes } = mirrorOf();
    await attached(mirror, scripted, [version("a", 1)]);
    changes.length = 0;
    scripted.tell({ domain: "skills", name: "a", action: "saved" });
    scripted.tell({ domain: "skills", name: "a", action: "removed" });
    const [older, newer] = scripted.gets;
    newer?.answer.resolve(undefined);
    await Promise.resolve();
    older?.answer.resolve(version("a", 2));
    await mirror.settled();
    assert.equal(mirror.get("a"), undefined, "the removal, read later, stands");
    assert.deepEqual(changes, [["a", undefined]]);
  });

  it("a local write shows at once; a read begun before it is ignored, and a read after it is made", async () => {
    const scripted = scriptedStore();
    const { mirror } = mirrorOf();
    await attached(mirror, scripted, [version("a", 1)]);
    scripted.tell({ domain: "skills", name: "a", action: "saved" });
    mirror.wrote("a", version("a", 2));
    assert.equal(mirror.get("a")?.version, 2);
    const [before, after] = scripted.gets;
    assert.equal(after?.name, "a", "the write is read back");
    before?.answer.resolve(version("a", 1));
    // Another replica's save that the earlier read could not be trusted with.
    after?.answer.resolve(version("a", 3));
    await mirror.settled();
    assert.equal(mirror.get("a")?.version, 3);
  });

  it("resync reloads everything (a skill removed meanwhile is dropped) but keeps a name read after it began", async () => {
    const scripted = scriptedStore();
    const { mirror, changes } = mirrorOf();
    await attached(mirror, scripted, [version("a", 1), version("b", 1)]);
    changes.length = 0;
    scripted.tell({ domain: "skills", action: "resync" });
    scripted.tell({ domain: "skills", name: "c", action: "saved" });
    scripted.gets[0]?.answer.resolve(version("c", 2));
    await Promise.resolve();
    scripted.lists[1]?.resolve([version("a", 1), version("c", 1)]);
    await mirror.settled();
    assert.deepEqual(
      mirror.list().map((skill) => [skill.name, skill.version]),
      [
        ["a", 1],
        ["c", 2],
      ],
    );
    assert.deepEqual(changes.sort(), [
      ["b", undefined],
      ["c", 2],
    ]);
  });

  it("a reload that fails is logged and the last copy kept; a later change brings it in step", async () => {
    const scripted = scriptedStore();
    const { mirror, warnings } = mirrorOf();
    await attached(mirror, scripted, [version("a", 1)]);
    scripted.tell({ domain: "skills", name: "a", action: "saved" });
    scripted.gets[0]?.answer.reject(new Error("connection reset"));
    scripted.tell({ domain: "skills", action: "resync" });
    scripted.lists[1]?.reject(new Error("connection reset"));
    await mirror.settled();
    assert.equal(mirror.get("a")?.version, 1);
    assert.equal(warnings.length, 2);
    assert.match(
      warnings[0] ?? "",
      /cannot reload skill "a" from the store: connection reset; serving the last copy/,
    );
    assert.match(warnings[1] ?? "", /cannot reload the skills from the store: connection reset/);
    scripted.tell({ domain: "skills", name: "a", action: "saved" });
    scripted.gets[1]?.answer.resolve(version("a", 2));
    await mirror.settled();
    assert.equal(mirror.get("a")?.version, 2);
  });

  it("a skill removed and saved again at version 1 counts as changed; the same version heard again does not", async () => {
    const scripted = scriptedStore();
    const { mirror, changes } = mirrorOf();
    await attached(mirror, scripted, [version("a", 1)]);
    changes.length = 0;
    scripted.tell({ domain: "skills", name: "a", action: "saved" });
    scripted.gets[0]?.answer.resolve(version("a", 1));
    await mirror.settled();
    assert.deepEqual(changes, []);
    scripted.tell({ domain: "skills", name: "a", action: "saved" });
    scripted.gets[1]?.answer.resolve(version("a", 1, { code: "export const again = 1;", createdAt: 50 }));
    await mirror.settled();
    assert.deepEqual(changes, [["a", 1]]);
    assert.equal(mirror.get("a")?.code, "export const again = 1;");
  });

  it("detached, it hears nothing more", async () => {
    const scripted = scriptedStore();
    const { mirror } = mirrorOf();
    await attached(mirror, scripted, []);
    mirror.detach();
    scripted.tell({ domain: "skills", name: "a", action: "saved" });
    assert.equal(scripted.gets.length, 0);
    assert.equal(mirror.store, undefined);
  });
});
