import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SkillError } from "./skill-error.ts";
import { openMemoryStore } from "./sqlite-store.ts";
import type { SaveSkillInput } from "./types.ts";

function skill(overrides: Partial<SaveSkillInput> = {}): SaveSkillInput {
  return {
    name: "summarize",
    code: "export function summarize(t: string) { return t.slice(0, 10); }",
    description: "Summarizes text.",
    declaration: "export declare function summarize(t: string): string;",
    ...overrides,
  };
}

const skillError = (code: string) => (error: unknown) => error instanceof SkillError && error.code === code;

describe("skills in the store", () => {
  it("saves new versions and keeps old ones readable", () => {
    let now = 100;
    const store = openMemoryStore({ now: () => now });
    const first = store.saveSkill(skill({ session: "a" }));
    assert.deepEqual(first, {
      name: "summarize",
      version: 1,
      code: skill().code,
      description: "Summarizes text.",
      declaration: skill().declaration,
      language: "typescript",
      authorSession: "a",
      visibility: "shared",
      ownerSession: null,
      createdAt: 100,
      origin: null,
    });
    now = 200;
    const second = store.saveSkill(skill({ code: "export const v = 2;", session: "b" }));
    assert.equal(second.version, 2);
    assert.equal(second.authorSession, "b");
    assert.equal(store.getSkill("summarize")?.code, "export const v = 2;");
    assert.equal(store.getSkill("summarize", { version: 1 })?.code, skill().code);
    assert.equal(store.getSkill("summarize", { version: 3 }), undefined);
    assert.deepEqual(
      store.listSkillVersions("summarize").map((v) => [v.version, v.createdAt]),
      [
        [1, 100],
        [2, 200],
      ],
    );
    assert.deepEqual(
      store.listSkills().map((s) => [s.name, s.version]),
      [["summarize", 2]],
    );
    // A new version may change the language; each version keeps its own.
    const python = store.saveSkill(
      skill({ code: "def summarize(t):\n    return t[:10]\n", language: "python" }),
    );
    assert.equal(python.language, "python");
    assert.equal(store.getSkill("summarize", { version: 2 })?.language, "typescript");
    assert.equal(store.getSkill("summarize")?.language, "python");
    store.close();
  });

  it("hides private skills from other sessions and from no session", () => {
    const store = openMemoryStore();
    store.saveSkill(skill({ name: "mine", session: "a", visibility: "private" }));
    store.saveSkill(skill({ name: "ours", session: "a" }));
    assert.deepEqual(
      store.listSkills({ session: "a" }).map((s) => s.name),
      ["mine", "ours"],
    );
    assert.deepEqual(
      store.listSkills({ session: "b" }).map((s) => s.name),
      ["ours"],
    );
    assert.deepEqual(
      store.listSkills().map((s) => s.name),
      ["ours"],
    );
    assert.deepEqual(
      store.listSkills({ includePrivate: true }).map((s) => s.name),
      ["mine", "ours"],
    );
    assert.equal(store.getSkill("mine", { session: "b" }), undefined);
    assert.equal(store.getSkill("mine", { session: "b", version: 1 }), undefined);
    assert.deepEqual(store.listSkillVersions("mine", { session: "b" }), []);
    assert.equal(store.getSkill("mine", { session: "a" })?.ownerSession, "a");
    assert.equal(store.removeSkill("mine", { session: "b" }), false, "b cannot remove a's private skill");
    assert.ok(store.getSkill("mine", { session: "a" }));
    store.close();
  });

  it("refuses another session's private name, making a shared skill private, and private without a session", () => {
    const store = openMemoryStore();
    store.saveSkill(skill({ name: "mine", session: "a", visibility: "private" }));
    assert.throws(
      () => store.saveSkill(skill({ name: "mine", session: "b" })),
      skillError("skill.name_taken"),
    );
    assert.throws(() => store.saveSkill(skill({ name: "mine" })), skillError("skill.name_taken"));
    store.saveSkill(skill({ name: "ours", session: "a" }));
    assert.throws(
      () => store.saveSkill(skill({ name: "ours", session: "a", visibility: "private" })),
      skillError("skill.visibility"),
    );
    assert.throws(
      () => store.saveSkill(skill({ name: "solo", visibility: "private" })),
      skillError("skill.visibility"),
    );
    assert.equal(store.getSkill("solo", { includePrivate: true }), undefined, "refused saves leave nothing");
    store.close();
  });

  it("keeps a private skill private on a new version unless the owner shares it", () => {
    const store = openMemoryStore();
    store.saveSkill(skill({ name: "mine", session: "a", visibility: "private" }));
    assert.equal(store.saveSkill(skill({ name: "mine", session: "a" })).visibility, "private");
    const shared = store.saveSkill(skill({ name: "mine", session: "a", visibility: "shared" }));
    assert.equal(shared.visibility, "shared");
    assert.equal(shared.ownerSession, null);
    assert.equal(store.getSkill("mine", { session: "b" })?.version, 3);
    // Shared now: survives its author's deletion.
    store.deleteSession("a");
    assert.equal(store.getSkill("mine")?.version, 3);
    store.close();
  });

  it("validates names: they become import paths", () => {
    const store = openMemoryStore();
    for (const name of ["", "../x", "a/b", "1abc", "a.b", "x".repeat(65), "naïve"]) {
      assert.throws(() => store.saveSkill(skill({ name })), skillError("skill.bad_name"), name);
    }
    assert.equal(store.saveSkill(skill({ name: "fetch_issues-2" })).version, 1);
    store.close();
  });

  it("removes every version", () => {
    const store = openMemoryStore();
    store.saveSkill(skill());
    store.saveSkill(skill());
    assert.equal(store.removeSkill("summarize"), true);
    assert.equal(store.getSkill("summarize", { version: 1 }), undefined);
    assert.equal(store.removeSkill("summarize"), false);
    // The name is free again and starts over at version 1.
    assert.equal(store.saveSkill(skill()).version, 1);
    store.close();
  });

  it("keeps the origin of a generated skill with each version", () => {
    const store = openMemoryStore();
    const origin = {
      kind: "generated" as const,
      task: "add two numbers",
      argNames: ["a", "b"],
      provider: "anthropic",
      model: "claude-test",
      repaired: true,
      expiresAt: 123,
    };
    store.saveSkill(skill({ name: "generated-add", origin }));
    assert.deepEqual(store.getSkill("generated-add")?.origin, origin);
    store.saveSkill(skill({ name: "generated-add" }));
    assert.equal(store.getSkill("generated-add")?.origin, null, "a version saved by hand has no origin");
    assert.deepEqual(store.getSkill("generated-add", { version: 1 })?.origin, origin);
  });
});

describe("cache entries in the store", () => {
  it("reads a value until it expires, replaces it, and deletes expired ones", () => {
    let now = 1_000;
    const store = openMemoryStore({ now: () => now });
    store.putCacheEntry("solve.task", "add", "generated-add", 500);
    store.putCacheEntry("llm.answer", "add", "other namespace", 10_000);
    assert.equal(store.getCacheEntry("solve.task", "add"), "generated-add");
    assert.equal(store.getCacheEntry("solve.task", "missing"), undefined);
    now = 1_499;
    store.putCacheEntry("solve.task", "sum", "generated-sum", 1);
    now = 1_500;
    assert.equal(store.getCacheEntry("solve.task", "add"), undefined, "expired at its time");
    assert.equal(store.getCacheEntry("llm.answer", "add"), "other namespace");
    assert.equal(store.deleteExpiredCacheEntries(), 2);
    store.putCacheEntry("solve.task", "add", "generated-add-2", 100);
    assert.equal(store.getCacheEntry("solve.task", "add"), "generated-add-2");
    assert.throws(() => store.putCacheEntry("x", "y", "z", 0), RangeError);
  });
});
