// Pass-through against an in-process 2.x upstream the test drives: raw schemas on the
// wire, subscriptions and list_changed forwarding, a server going down and back,
// pagination, and the gateway's call hook.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { InMemoryTransport, McpServer, Server } from "@modelcontextprotocol/server";
import { z } from "zod";
import { clientSource } from "./client-source.fixture.ts";
import { registerPassThrough } from "./register.ts";

// JSON Schema 2020-12 with everything a converter would be tempted to touch.
const RAW_TOOL = {
  name: "lookup",
  title: "Look up",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { id: { type: "string", pattern: "^[a-z]+$" } },
    properties: { id: { $ref: "#/$defs/id" }, tags: { type: "array", prefixItems: [{ type: "string" }] } },
    required: ["id"],
    unevaluatedProperties: false,
    "x-vendor": { keep: true },
  },
  outputSchema: { type: "object", properties: { found: { type: "boolean" } }, $comment: "kept" },
  annotations: { readOnlyHint: true, title: "annotated" },
  _meta: { "example.com/tier": "gold" },
};

/** Every raw message the transport delivers to its owner, recorded after connect. */
function record(transport: Transport): JSONRPCMessage[] {
  const seen: JSONRPCMessage[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    seen.push(message);
    deliver?.(message, extra);
  };
  return seen;
}

function waitFor<T>(seen: T[], predicate: (item: T) => boolean, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} within 10 s`)), 10_000);
    const poll = () => {
      const hit = seen.find(predicate);
      if (hit !== undefined) {
        clearTimeout(timer);
        resolve(hit);
      } else setTimeout(poll, 10);
    };
    poll();
  });
}

const method = (name: string) => (message: JSONRPCMessage) => "method" in message && message.method === name;

describe("pass-through notifications and raw wire", () => {
  const subscribed: string[] = [];
  let upstream: Server;
  let upstreamClient: Client;
  let source: ReturnType<typeof clientSource>;
  const refusals: string[] = [];

  before(async () => {
    upstream = new Server(
      { name: "raw", version: "0" },
      { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } } },
    );
    upstream.setRequestHandler("tools/list", () => ({ tools: [RAW_TOOL] }) as never);
    upstream.setRequestHandler("tools/call", (request) => ({
      content: [{ type: "text", text: JSON.stringify(request.params.arguments) }],
      structuredContent: { found: true },
    }));
    upstream.setRequestHandler("resources/list", () => ({
      resources: [{ uri: "test://watched", name: "watched" }],
    }));
    upstream.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: [] }));
    upstream.setRequestHandler("resources/read", (request) => ({
      contents: [{ uri: request.params.uri, text: "now" }],
    }));
    upstream.setRequestHandler("resources/subscribe", (request) => {
      subscribed.push(`+${request.params.uri}`);
      return {};
    });
    upstream.setRequestHandler("resources/unsubscribe", (request) => {
      subscribed.push(`-${request.params.uri}`);
      return {};
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await upstream.connect(serverSide);
    upstreamClient = new Client({ name: "gateway-upstream", version: "0" });
    await upstreamClient.connect(clientSide);
    source = clientSource("raw", "raw__", upstreamClient, {
      beforeCall: (name, args) => {
        if (args.id === "forbidden") {
          refusals.push(name);
          throw new Error("PolicyError: raw/lookup is denied by toolscript.policy.deny");
        }
      },
    });
  });

  after(async () => {
    await upstreamClient?.close();
    await upstream?.close();
  });

  async function frontEnd(pageSize?: number) {
    const server = new McpServer({ name: "gateway", version: "0" });
    server.registerTool("execute_code", { inputSchema: z.object({ code: z.string() }) }, async () => ({
      content: [{ type: "text", text: "ok" }],
    }));
    const registration = registerPassThrough(server, [source], {
      ...(pageSize ? { pageSize } : {}),
      warn: () => {},
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "front", version: "0" });
    await client.connect(clientSide);
    const raw = record(clientSide);
    return { client, raw, registration, close: () => Promise.all([client.close(), server.close()]) };
  }

  it("puts a source's tool definition on the wire byte for byte, only renamed", async () => {
    const raw = { ...source, tools: () => [RAW_TOOL] as never };
    const server = new McpServer({ name: "gateway", version: "0" });
    registerPassThrough(server, [raw], { warn: () => {} });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "front", version: "0" });
    await client.connect(clientSide);
    const seen = record(clientSide);
    try {
      await client.listTools();
      const answer = seen.find((m) => "result" in m && "tools" in (m.result as object)) as unknown as {
        result: { tools: unknown[] };
      };
      assert.equal(
        JSON.stringify(answer.result.tools),
        JSON.stringify([{ ...RAW_TOOL, name: "raw__lookup" }]),
      );
    } finally {
      await Promise.all([client.close(), server.close()]);
    }
  });

  it("keeps every keyword of a real upstream's 2020-12 schema (the upstream client may reorder keys)", async () => {
    const front = await frontEnd();
    try {
      const { tools } = await front.client.listTools();
      assert.deepEqual(
        tools.find((tool) => tool.name === "raw__lookup"),
        { ...RAW_TOOL, name: "raw__lookup" },
      );
    } finally {
      await front.close();
    }
  });

  it("calls through the gateway's hook: a refusal there is a tool error, never an upstream call", async () => {
    const front = await frontEnd();
    try {
      const refused = await front.client.callTool({ name: "raw__lookup", arguments: { id: "forbidden" } });
      assert.deepEqual(refused, {
        content: [{ type: "text", text: "PolicyError: raw/lookup is denied by toolscript.policy.deny" }],
        isError: true,
      });
      assert.deepEqual(refusals, ["lookup"]);
      const allowed = await front.client.callTool({ name: "raw__lookup", arguments: { id: "abc" } });
      assert.deepEqual(allowed.structuredContent, { found: true });
    } finally {
      await front.close();
    }
  });

  it("pages a merged list with an opaque cursor and refuses a forged one", async () => {
    const front = await frontEnd(1);
    try {
      // The 2.x client follows nextCursor itself when given none: the pages are on the wire.
      const { tools } = await front.client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ["execute_code", "raw__lookup"],
      );
      const pages = front.raw.flatMap((m) =>
        "result" in m && "tools" in (m.result as object)
          ? [m.result as { tools: { name: string }[]; nextCursor?: string }]
          : [],
      );
      assert.deepEqual(
        pages.map((p) => p.tools.map((tool) => tool.name)),
        [["execute_code"], ["raw__lookup"]],
      );
      assert.equal(typeof pages[0]?.nextCursor, "string");
      assert.equal(pages[1]?.nextCursor, undefined);
      await assert.rejects(front.client.listTools({ cursor: "bogus" }), /Invalid cursor/);
    } finally {
      await front.close();
    }
  });

  it("subscribes once upstream for two sessions, forwards resources/updated to subscribers only", async () => {
    const a = await frontEnd();
    const b = await frontEnd();
    try {
      subscribed.length = 0;
      await a.client.subscribeResource({ uri: "test://watched" });
      await b.client.subscribeResource({ uri: "test://watched" });
      assert.deepEqual(subscribed, ["+test://watched"]);
      await upstream.sendResourceUpdated({ uri: "test://watched" });
      await waitFor(a.raw, method("notifications/resources/updated"), "resources/updated at a");
      await waitFor(b.raw, method("notifications/resources/updated"), "resources/updated at b");

      await b.client.unsubscribeResource({ uri: "test://watched" });
      assert.deepEqual(subscribed, ["+test://watched"], "a still holds it");
      b.raw.length = 0;
      a.raw.length = 0;
      await upstream.sendResourceUpdated({ uri: "test://watched" });
      await waitFor(a.raw, method("notifications/resources/updated"), "the second resources/updated at a");
      assert.equal(b.raw.filter(method("notifications/resources/updated")).length, 0);
      await a.registration.dispose();
      assert.deepEqual(
        subscribed,
        ["+test://watched", "-test://watched"],
        "the last session's end unsubscribes",
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("forwards list_changed, and empties then refills the lists when the server goes down and comes back", async () => {
    const front = await frontEnd();
    try {
      await upstream.sendToolListChanged();
      await waitFor(front.raw, method("notifications/tools/list_changed"), "tools/list_changed");
      await upstream.sendResourceListChanged();
      await waitFor(front.raw, method("notifications/resources/list_changed"), "resources/list_changed");

      source.down = true;
      front.raw.length = 0;
      source.emit({ kind: "tools" });
      await waitFor(front.raw, method("notifications/tools/list_changed"), "list_changed when down");
      assert.deepEqual(
        (await front.client.listTools()).tools.map((tool) => tool.name),
        ["execute_code"],
      );
      assert.deepEqual((await front.client.listResources()).resources, []);
      source.down = false;
      source.emit({ kind: "tools" });
      assert.deepEqual(
        (await front.client.listTools()).tools.map((tool) => tool.name),
        ["execute_code", "raw__lookup"],
      );
      assert.deepEqual((await front.client.readResource({ uri: "test://watched" })).contents, [
        { uri: "test://watched", text: "now" },
      ]);
    } finally {
      source.down = false;
      await front.close();
    }
  });
});
