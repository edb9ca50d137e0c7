import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ServerContext } from "@modelcontextprotocol/server";
import { ClientCannotAnswer } from "../../upstream/forwarding.ts";
import { InputRounds } from "../approval-rounds.ts";
import type { ClientConnection } from "../client-connection.ts";
import { ClientRouter } from "./client-router.ts";

/** A front-end connection that records what it is sent. */
function connection(name: string, options: { modern?: boolean; sampling?: boolean } = {}) {
  const sent: Array<{ to: string; what: string; params?: unknown; relatedTo?: unknown }> = [];
  const logs: unknown[] = [];
  const handle = {
    era: () => (options.modern ? "modern" : "legacy"),
    capabilities: () => (options.sampling ? { sampling: {} } : {}),
    protocolVersion: () => (options.modern ? "2026-07-28" : "2025-11-25"),
    log: async (level: string, data: unknown) => {
      logs.push({ level, data });
    },
    progress: async () => {},
    sampling: () =>
      options.sampling && !options.modern
        ? async (params: unknown, request?: { relatedTo?: unknown }) => {
            sent.push({ to: name, what: "sampling", params, relatedTo: request?.relatedTo });
            return { role: "assistant", model: name, content: { type: "text", text: name } };
          }
        : undefined,
    elicitation: () => undefined,
    roots: () => undefined,
    track: () => () => {},
  } as unknown as ClientConnection;
  return { handle, sent, logs };
}

const signal = new AbortController().signal;

describe("ClientRouter", () => {
  it("asks the client whose call is in flight on that server, most recent first", async () => {
    const router = new ClientRouter();
    const a = connection("a", { sampling: true });
    const b = connection("b", { sampling: true });
    router.attach(a.handle);
    router.attach(b.handle);
    const endA = router.begin("s", { connection: a.handle, relatedTo: "call-a" });
    const endB = router.begin("s", { connection: b.handle });
    router.begin("other", { connection: a.handle });
    assert.deepEqual(await router.sample("s", { messages: [] }, signal), {
      role: "assistant",
      model: "b",
      content: { type: "text", text: "b" },
    });
    endB();
    await router.sample("s", { messages: [] }, signal);
    assert.deepEqual(a.sent.at(-1)?.relatedTo, "call-a", "the request rides the call's stream");
    endA();
    // Nobody calls "s" now and two clients are connected: whom to ask is unknown.
    await assert.rejects(router.sample("s", {}, signal), (error: unknown) => {
      assert.ok(error instanceof ClientCannotAnswer);
      assert.match((error as Error).message, /2 clients are connected/);
      return true;
    });
  });

  it("falls back to the only connected client, and refuses one that did not declare the capability", async () => {
    const router = new ClientRouter();
    const only = connection("only");
    const attached = router.attach(only.handle);
    await assert.rejects(router.sample("s", {}, signal), /did not declare the sampling capability/);
    attached.detach();
    await assert.rejects(router.listRoots("s", signal), /no client is connected/);
  });

  it("puts a 2026-07-28 client's questions into its paused call, under the upstream's key", async () => {
    const router = new ClientRouter();
    const modern = connection("m", { modern: true, sampling: true });
    const rounds = new InputRounds();
    const ctx = (inputResponses?: Record<string, unknown>) =>
      ({ mcpReq: { signal: new AbortController().signal, inputResponses } }) as unknown as ServerContext;
    const first = (await rounds.start(
      async (ask) => {
        const end = router.begin("s", { connection: modern.handle, ask });
        try {
          const answer = await router.sample("s", { messages: [] }, signal, { inputKey: "llm" });
          return { content: [{ type: "text", text: JSON.stringify(answer) }] };
        } finally {
          end();
        }
      },
      ctx(),
      null,
    )) as { resultType?: string; inputRequests?: Record<string, { method: string }>; requestState?: string };
    assert.equal(first.resultType, "input_required");
    assert.deepEqual(Object.keys(first.inputRequests ?? {}), ["llm"]);
    assert.equal(first.inputRequests?.llm?.method, "sampling/createMessage");
    const state = first.requestState as string;
    const done = (await rounds.resume(state, ctx({ llm: { role: "assistant", content: "ok" } }), null)) as {
      content: Array<{ text: string }>;
    };
    assert.match(done.content[0]?.text ?? "", /"ok"/);
    // A used requestState cannot resume anything again.
    await assert.rejects(rounds.resume(state, ctx(), null), /Invalid or expired requestState/);
  });

  it("forwards logs to every attached client and asks upstreams for the least severe level set", () => {
    const router = new ClientRouter();
    const levels: string[] = [];
    router.onLevel((level) => levels.push(level));
    const a = connection("a");
    const b = connection("b");
    const first = router.attach(a.handle);
    const second = router.attach(b.handle);
    first.setLevel("error");
    second.setLevel("info");
    second.setLevel("nonsense");
    assert.deepEqual(levels, ["error", "info"]);
    second.detach();
    assert.deepEqual(levels, ["error", "info", "error"]);
    router.log("s", { level: "warning", data: "careful", logger: "x" });
    assert.deepEqual(a.logs, [{ level: "warning", data: "careful" }]);
    assert.deepEqual(b.logs, []);
  });

  it("while a client's call is in flight on a server, that server's logs go to that client only", () => {
    const router = new ClientRouter();
    const a = connection("a");
    const b = connection("b");
    router.attach(a.handle);
    router.attach(b.handle);
    const end = router.begin("s", { connection: b.handle });
    router.log("s", { level: "info", data: "during b's call" });
    router.log("other", { level: "info", data: "unrelated server" });
    end();
    router.log("s", { level: "info", data: "after the call" });
    assert.deepEqual(a.logs, [
      { level: "info", data: "unrelated server" },
      { level: "info", data: "after the call" },
    ]);
    assert.deepEqual(b.logs, [
      { level: "info", data: "during b's call" },
      { level: "info", data: "unrelated server" },
      { level: "info", data: "after the call" },
    ]);
  });
});
