import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { openMemoryStore } from "../store/sqlite-store.ts";
import { SessionError } from "./errors.ts";
import { DEFAULT_SESSION_IDLE_TTL_MS, SessionManager } from "./session-manager.ts";

function clock() {
  const state = { now: 1_000_000 };
  return { state, now: () => state.now };
}

describe("SessionManager", () => {
  it("creates, touches, gets, lists and deletes sessions", () => {
    const time = clock();
    const store = openMemoryStore({ now: time.now });
    const sessions = new SessionManager(store, { sweepIntervalMs: 0 });
    assert.equal(sessions.idleTtlMs, DEFAULT_SESSION_IDLE_TTL_MS);
    const fresh = sessions.create();
    assert.match(fresh.id, /^[0-9a-f-]{36}$/);
    assert.notEqual(sessions.create().id, fresh.id);
    time.state.now += 5;
    assert.equal(sessions.touch("named").lastSeenAt, time.state.now);
    assert.equal(sessions.touch("named", { idleTtlMs: 50 }).idleTtlMs, 50);
    assert.equal(sessions.get("named")?.idleTtlMs, 50);
    assert.equal(sessions.list().length, 3);
    assert.equal(sessions.delete("named"), true);
    assert.equal(sessions.delete("named"), false);
    assert.equal(sessions.get("named"), undefined);
    store.close();
  });

  it("refuses unusable ids", () => {
    const store = openMemoryStore();
    const sessions = new SessionManager(store, { sweepIntervalMs: 0 });
    for (const id of ["", "x".repeat(201), "a\0b", "a\nb"]) {
      assert.throws(
        () => sessions.touch(id),
        (error: unknown) => error instanceof SessionError && error.code === "session.bad_id",
      );
    }
    assert.throws(() => sessions.workspace(""), SessionError);
    sessions.touch("mcp-session 7f3a:é");
    store.close();
  });

  it("deleting a session removes all its data: files, vault, private skills", () => {
    const store = openMemoryStore();
    const sessions = new SessionManager(store, { sweepIntervalMs: 0 });
    sessions.workspace("a").writeFile("f.txt", "x");
    store.putVault("a", new Uint8Array([1]));
    store.saveSkill({
      name: "p",
      code: "",
      description: "d",
      declaration: "",
      session: "a",
      visibility: "private",
    });
    sessions.workspace("b").writeFile("f.txt", "y");
    sessions.delete("a");
    assert.deepEqual(sessions.workspace("a").list(), []);
    assert.equal(store.getVault("a"), undefined);
    assert.equal(store.getSkill("p", { includePrivate: true }), undefined);
    assert.equal(sessions.workspace("b").readFile("f.txt"), "y", "other sessions untouched");
    store.close();
  });

  it("expire() removes idle sessions only, by default or per-session TTL", () => {
    const time = clock();
    const store = openMemoryStore({ now: time.now });
    const sessions = new SessionManager(store, { sweepIntervalMs: 0, idleTtlMs: 1_000 });
    sessions.workspace("idle").writeFile("f.txt", "x");
    sessions.touch("patient", { idleTtlMs: 10_000 });
    time.state.now += 600;
    sessions.touch("busy");
    time.state.now += 600;
    assert.deepEqual(sessions.expire(), ["idle"]);
    assert.deepEqual(sessions.workspace("idle").list(), []);
    sessions.touch("busy");
    time.state.now += 900;
    assert.deepEqual(sessions.expire(), []);
    time.state.now += 10_000;
    assert.deepEqual(sessions.expire().sort(), ["busy", "patient"]);
    store.close();
  });

  it("sweeps on an unref'd timer and reports what expired", async () => {
    const time = clock();
    const store = openMemoryStore({ now: time.now });
    const expired: string[][] = [];
    const sessions = new SessionManager(store, {
      idleTtlMs: 100,
      sweepIntervalMs: 5,
      onExpired: (ids) => expired.push(ids),
    });
    sessions.workspace("old").writeFile("f", "x");
    time.state.now += 101;
    for (let i = 0; i < 100 && expired.length === 0; i++) await sleep(5);
    assert.deepEqual(expired, [["old"]]);
    assert.equal(store.getSession("old"), undefined);
    sessions.close();
    store.close();
  });

  it("reports sweep failures instead of throwing from the timer", async () => {
    const store = openMemoryStore();
    const errors: unknown[] = [];
    const sessions = new SessionManager(store, {
      sweepIntervalMs: 5,
      onError: (error) => errors.push(error),
    });
    store.close();
    for (let i = 0; i < 100 && errors.length === 0; i++) await sleep(5);
    assert.match(String(errors[0]), /store.*closed/);
    sessions.close();
  });
});
