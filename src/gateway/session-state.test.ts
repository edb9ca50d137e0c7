import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseConfig } from "../config/parse.ts";
import { openMemoryStore } from "../store/sqlite-store.ts";
import { silentLogger } from "./logger.ts";
import { SessionStates } from "./session-state.ts";

function states(): SessionStates {
  const config = parseConfig({ mcpServers: {} }, { baseDir: "/", env: {} });
  return new SessionStates(config.settings.privacy, undefined);
}

describe("SessionStates: sessions belong to the client that created them", () => {
  it("refuses another client's session as unknown, before and after the store knows it", () => {
    const sessions = states();
    sessions.attach(openMemoryStore(), silentLogger);
    assert.equal(sessions.touch("work", "alice"), undefined);
    const refused = sessions.touch("work", "bob");
    assert.deepEqual(refused, { kind: "runtime", name: "SessionError", message: 'unknown session "work"' });
    assert.deepEqual(sessions.touch("work", null), refused, "the local client is a client too");
    assert.deepEqual(sessions.refusal("work", "bob"), refused);
    assert.equal(sessions.refusal("work", "alice"), undefined);
    assert.equal(sessions.refusal("never-used", "bob"), undefined, "an unknown name is free to take");
    assert.equal(sessions.touch("work", "alice"), undefined);
    sessions.close();
  });

  it("reads owners from the store (a gateway restarted on the same data)", () => {
    const store = openMemoryStore();
    store.claimSession("work", "alice");
    const sessions = states();
    sessions.attach(store, silentLogger);
    assert.equal(sessions.touch("work", "bob")?.name, "SessionError");
    assert.equal(sessions.refusal("work", "bob")?.name, "SessionError");
    assert.equal(sessions.touch("work", "alice"), undefined);
    sessions.close();
  });

  it("keeps ownership in memory before a store is attached", () => {
    const sessions = states();
    assert.equal(sessions.touch("work", "alice"), undefined);
    assert.equal(sessions.touch("work", "bob")?.name, "SessionError");
  });

  it("the local client alone keeps its behaviour: any name, created on first use", () => {
    const sessions = states();
    sessions.attach(openMemoryStore(), silentLogger);
    assert.equal(sessions.touch("default"), undefined);
    assert.equal(sessions.touch("default"), undefined);
    assert.equal(sessions.touch("x".repeat(201))?.name, "SessionError");
    sessions.close();
  });
});
