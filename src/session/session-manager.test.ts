import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { storeEngines, withEngineStore } from "../../test/helpers/store-engines.ts";
import { SessionError } from "./errors.ts";
import { DEFAULT_SESSION_IDLE_TTL_MS, SessionManager } from "./session-manager.ts";

function clock() {
  const state = { now: 1_000_000 };
  return { state, now: () => state.now };
}

const privateSkill = {
  name: "p",
  code: "",
  description: "d",
  declaration: "",
  session: "a",
  visibility: "private" as const,
};

for (const engine of storeEngines("session_manager")) {
  describe(`SessionManager (${engine.name})`, () => {
    it("creates, touches, gets, lists and deletes sessions", async () => {
      const time = clock();
      await withEngineStore(
        engine,
        async (store) => {
          const sessions = new SessionManager(store.sessions, { sweepIntervalMs: 0 });
          assert.equal(sessions.idleTtlMs, DEFAULT_SESSION_IDLE_TTL_MS);
          const fresh = await sessions.create();
          assert.match(fresh.id, /^[0-9a-f-]{36}$/);
          assert.notEqual((await sessions.create()).id, fresh.id);
          time.state.now += 5;
          assert.equal((await sessions.touch("named")).lastSeenAt, time.state.now);
          assert.equal((await sessions.touch("named", { idleTtlMs: 50 })).idleTtlMs, 50);
          assert.equal((await sessions.get("named"))?.idleTtlMs, 50);
          assert.equal((await sessions.list()).length, 3);
          assert.equal(await sessions.delete("named"), true);
          assert.equal(await sessions.delete("named"), false);
          assert.equal(await sessions.get("named"), undefined);
        },
        { now: time.now },
      );
    });

    it("refuses unusable ids", () =>
      withEngineStore(engine, async (store) => {
        const sessions = new SessionManager(store.sessions, { sweepIntervalMs: 0 });
        for (const id of ["", "x".repeat(201), "a\0b", "a\nb"]) {
          await assert.rejects(
            sessions.touch(id),
            (error: unknown) => error instanceof SessionError && error.code === "session.bad_id",
          );
        }
        assert.throws(() => sessions.workspace(""), SessionError);
        await sessions.touch("mcp-session 7f3a:é");
      }));

    it("deleting a session removes all its data: files, vault, private skills", () =>
      withEngineStore(engine, async (store) => {
        const sessions = new SessionManager(store.sessions, { sweepIntervalMs: 0 });
        await sessions.workspace("a").writeFile("f.txt", "x");
        await store.vaults.put("a", new Uint8Array([1]), undefined);
        await store.skills.save(privateSkill);
        await sessions.workspace("b").writeFile("f.txt", "y");
        await sessions.delete("a");
        assert.deepEqual(await sessions.workspace("a").list(), []);
        assert.equal(await store.vaults.get("a"), undefined);
        assert.equal(await store.skills.get("p", { includePrivate: true }), undefined);
        assert.equal(await sessions.workspace("b").readFile("f.txt"), "y", "other sessions untouched");
      }));

    it("expire() removes idle sessions only, by default or per-session TTL", async () => {
      const time = clock();
      await withEngineStore(
        engine,
        async (store) => {
          const sessions = new SessionManager(store.sessions, { sweepIntervalMs: 0, idleTtlMs: 1_000 });
          await sessions.workspace("idle").writeFile("f.txt", "x");
          await sessions.touch("patient", { idleTtlMs: 10_000 });
          time.state.now += 600;
          await sessions.touch("busy");
          time.state.now += 600;
          assert.deepEqual(await sessions.expire(), ["idle"]);
          assert.deepEqual(await sessions.workspace("idle").list(), []);
          await sessions.touch("busy");
          time.state.now += 900;
          assert.deepEqual(await sessions.expire(), []);
          time.state.now += 10_000;
          assert.deepEqual((await sessions.expire()).sort(), ["busy", "patient"]);
        },
        { now: time.now },
      );
    });

    it("sweeps on an unref'd timer and reports what expired", async () => {
      const time = clock();
      await withEngineStore(
        engine,
        async (store) => {
          const expired: string[][] = [];
          const sessions = new SessionManager(store.sessions, {
            idleTtlMs: 100,
            sweepIntervalMs: 5,
            onExpired: (ids) => expired.push(ids),
          });
          try {
            await sessions.workspace("old").writeFile("f", "x");
            time.state.now += 101;
            for (let i = 0; i < 400 && expired.length === 0; i++) await sleep(5);
            assert.deepEqual(expired, [["old"]]);
            assert.equal(await store.sessions.get("old"), undefined);
          } finally {
            sessions.close();
          }
        },
        { now: time.now },
      );
    });

    it("reports sweep failures instead of throwing from the timer", async () => {
      const store = await engine.open();
      const errors: unknown[] = [];
      const sessions = new SessionManager(store.sessions, {
        sweepIntervalMs: 5,
        onError: (error) => errors.push(error),
      });
      await store.close();
      for (let i = 0; i < 400 && errors.length === 0; i++) await sleep(5);
      sessions.close();
      assert.match(String(errors[0]), /store.*closed/);
    });
  });
}
