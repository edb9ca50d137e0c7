import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { SessionEventStore } from "./event-store.ts";

const message = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: { n: id } });

async function replay(store: SessionEventStore, after: string): Promise<{ stream: string; ids: string[] }> {
  const ids: string[] = [];
  const stream = await store.replayEventsAfter(after, {
    send: async (id) => {
      ids.push(id);
    },
  });
  return { stream, ids };
}

describe("SessionEventStore", () => {
  it("replays the events of one stream after the given id, not other streams'", async () => {
    const store = new SessionEventStore();
    const a1 = await store.storeEvent("a", message(1));
    await store.storeEvent("b", message(2));
    const a3 = await store.storeEvent("a", message(3));
    const a4 = await store.storeEvent("a", message(4));
    assert.deepEqual(await replay(store, a1), { stream: "a", ids: [a3, a4] });
    assert.deepEqual(await replay(store, a4), { stream: "a", ids: [] });
  });

  it("is bounded in events and characters, dropping the oldest first", async () => {
    const store = new SessionEventStore(3, 1_000_000);
    const first = await store.storeEvent("s", message(1));
    for (let n = 2; n <= 10; n++) await store.storeEvent("s", message(n));
    assert.equal(store.size, 3);
    // An id older than what is kept still names its stream; only the kept events come back.
    assert.equal((await replay(store, first)).ids.length, 3);
    const small = new SessionEventStore(100, 200);
    for (let n = 0; n < 20; n++) await small.storeEvent("s", message(n));
    assert.ok(small.size < 20 && small.size >= 1, `kept ${small.size}`);
  });

  it("refuses an id it never made", async () => {
    await assert.rejects(replay(new SessionEventStore(), "garbage"), /unknown event id/);
  });
});
