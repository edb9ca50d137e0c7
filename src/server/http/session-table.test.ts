import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, it } from "node:test";
import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { McpServer } from "@modelcontextprotocol/server";
import { type HttpSession, HttpSessionTable } from "./session-table.ts";

function session(client: string, lastSeen: number): HttpSession {
  return {
    client,
    lastSeen,
    busy: 0,
    transport: {} as NodeStreamableHTTPServerTransport,
    server: {} as McpServer,
  };
}

function evicted(table: HttpSessionTable, client: string, cap: number): string | undefined {
  const room = table.makeRoom(client, cap);
  return room.ok ? room.evict?.id : "refused";
}

describe("HttpSessionTable", () => {
  it("finds a session only for the client that owns it", () => {
    const table = new HttpSessionTable();
    table.add("s1", session("alice", 1));
    assert.equal(table.get("s1", "alice")?.client, "alice");
    assert.equal(table.get("s1", "bob"), undefined);
    assert.equal(table.get("nope", "alice"), undefined);
  });

  it("at the cap, picks the client's least recently used idle session; refuses when all are busy", () => {
    const table = new HttpSessionTable();
    table.add("a1", session("alice", 30));
    table.add("a2", session("alice", 10));
    table.add("a3", session("alice", 20));
    table.add("b1", session("bob", 1));
    assert.deepEqual(table.makeRoom("alice", 4), { ok: true });
    assert.equal(evicted(table, "alice", 3), "a2");
    assert.deepEqual(table.makeRoom("bob", 2), { ok: true }, "other clients count apart");

    const response = new EventEmitter() as ServerResponse;
    const a2 = table.get("a2", "alice");
    assert.ok(a2);
    table.use(a2, response);
    assert.equal(evicted(table, "alice", 3), "a3");
    for (const id of ["a1", "a3"]) {
      const entry = table.get(id, "alice");
      assert.ok(entry);
      table.use(entry, new EventEmitter() as ServerResponse);
    }
    assert.deepEqual(table.makeRoom("alice", 3), { ok: false, open: 3 });
    response.emit("close");
    assert.equal(evicted(table, "alice", 3), "a2");
  });

  it("counts initializations in progress against the cap", () => {
    const table = new HttpSessionTable();
    const done = table.starting("alice");
    assert.deepEqual(table.makeRoom("alice", 1), { ok: false, open: 1 });
    done();
    done();
    assert.deepEqual(table.makeRoom("alice", 1), { ok: true });
  });

  it("sweeps sessions idle too long, never busy ones", () => {
    const table = new HttpSessionTable();
    table.add("old", session("alice", 0));
    table.add("busy", { ...session("alice", 0), busy: 1 });
    table.add("new", session("alice", 900));
    assert.deepEqual(table.idleSince(1000, 500), ["old"]);
  });
});
