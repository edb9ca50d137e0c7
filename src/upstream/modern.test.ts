import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, inputRequired, inputResponse, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { UpstreamFeatures } from "./features.ts";
import { UpstreamManager } from "./manager.ts";
import type { ClientRequestHooks } from "./types.ts";

const FAST = { connectTimeoutMs: 8000, restart: { maxRetries: 0, initialDelayMs: 100, maxDelayMs: 100 } };

function textOf(result: { content?: unknown }): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((part) => part.text ?? "").join("\n");
}

/**
 * A server on the 2.x SDK, served by its HTTP handler: 2026-07-28 for clients
 * that probe, stateless 2025 serving for the others. `approve` asks for input
 * over two rounds (an elicitation, then the roots), carrying what it learnt in
 * `requestState`, as multi round-trip requests do (SEP-2322).
 */
function modernServer(withExtra: boolean): McpServer {
  const server = new McpServer(
    { name: "modern-loopback", version: "1.0.0" },
    { capabilities: { resources: { subscribe: true, listChanged: true } } },
  );
  if (withExtra) {
    server.registerTool("extra", { inputSchema: { note: z.string().optional() } }, async ({ note }) => ({
      content: [{ type: "text", text: note ?? "x" }],
    }));
  }
  server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.registerPrompt("greet", { description: "Say hello" }, () => ({
    messages: [{ role: "user" as const, content: { type: "text" as const, text: "hello" } }],
  }));
  server.registerResource("readme", "test://readme", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, text: "read me" }],
  }));
  server.registerTool("approve", { inputSchema: { what: z.string() } }, async ({ what }, ctx) => {
    const state = ctx.mcpReq.requestState<string>();
    const answer = inputResponse(ctx.mcpReq.inputResponses, "ok");
    if (state === undefined) {
      return inputRequired({
        inputRequests: {
          ok: inputRequired.elicit({
            message: `Approve ${what}?`,
            requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
          }),
        },
        requestState: "round-1",
      });
    }
    if (state === "round-1") {
      const action = answer.kind === "elicit" ? answer.action : "none";
      return inputRequired({
        inputRequests: { where: inputRequired.listRoots() },
        requestState: `round-2:${action}`,
      });
    }
    const roots = inputResponse(ctx.mcpReq.inputResponses, "where");
    const uris = roots.kind === "roots" ? roots.roots.map((root) => root.uri).join(",") : "none";
    return { content: [{ type: "text", text: `${what}: ${state.slice("round-2:".length)} in ${uris}` }] };
  });
  return server;
}

describe("a 2026-07-28 server over HTTP (SDK 2.x loopback)", () => {
  let http: Server;
  let url = "";
  const asked: string[] = [];
  const changed: string[] = [];
  const updated: string[] = [];
  const hooks: ClientRequestHooks = {
    async elicit(server, params) {
      asked.push(`elicit:${server}:${(params as { message?: string }).message}`);
      return { action: "accept", content: { ok: true } };
    },
    async listRoots(server) {
      asked.push(`roots:${server}`);
      return { roots: [{ uri: "file:///work", name: "work" }] };
    },
  };
  let manager: UpstreamManager;
  let withExtra = false;
  let handler: ReturnType<typeof createMcpHandler>;

  before(async () => {
    handler = createMcpHandler(() => modernServer(withExtra));
    http = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    manager = new UpstreamManager(
      [{ kind: "http", name: "modern", url, headers: {}, transport: "auto", disabled: false }],
      { ...FAST, clientRequests: hooks },
      {
        onListChanged: (server, kind) => changed.push(`${server}:${kind}`),
        onResourceUpdated: (server, uri) => updated.push(`${server}:${uri}`),
      },
    );
    await manager.start();
  });
  after(async () => {
    await manager.close();
    await handler.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  test("negotiates 2026-07-28, lists and calls tools", async () => {
    const status = manager.connection("modern").status();
    assert.equal(status.state, "ready", status.error);
    assert.equal(status.protocolVersion, "2026-07-28");
    assert.equal(status.transport, "streamable-http");
    assert.deepEqual(
      manager
        .connection("modern")
        .tools.map((tool) => tool.name)
        .sort(),
      ["add", "approve"],
    );
    assert.equal(textOf(await manager.callTool("modern", "add", { a: 2, b: 3 })), "5");
  });

  test("input_required rounds are answered through the hooks and retried with the request state", async () => {
    const result = await manager.callTool("modern", "approve", { what: "deploy" });
    assert.equal(textOf(result), "deploy: accept in file:///work");
    assert.deepEqual(asked, ["elicit:modern:Approve deploy?", "roots:modern"]);
  });

  test("a tool list change reaches the gateway on its subscriptions/listen stream", async () => {
    withExtra = true;
    handler.notify.toolsChanged();
    const connection = manager.connection("modern");
    for (let waited = 0; !connection.tools.some((tool) => tool.name === "extra"); waited += 25) {
      assert.ok(waited < 10_000, "the new tool never appeared");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });

  test("prompt and resource list changes reach onListChanged", async () => {
    handler.notify.promptsChanged();
    handler.notify.resourcesChanged();
    for (let waited = 0; changed.length < 2; waited += 25) {
      assert.ok(waited < 10_000, `only ${JSON.stringify(changed)} arrived`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.deepEqual([...changed].sort(), ["modern:prompts", "modern:resources"]);
  });

  test("a subscribed resource's updates arrive on the listen stream; after unsubscribing they stop", async () => {
    const features = new UpstreamFeatures(manager.connection("modern"));
    await features.subscribeResource("test://readme");
    handler.notify.resourceUpdated("test://other");
    handler.notify.resourceUpdated("test://readme");
    for (let waited = 0; updated.length === 0; waited += 25) {
      assert.ok(waited < 10_000, "no resources/updated arrived");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.deepEqual(updated, ["modern:test://readme"]);
    await features.unsubscribeResource("test://readme");
    handler.notify.resourceUpdated("test://readme");
    // A list change sent after it arrives on the same reopened stream: had the update been sent, it came first.
    const before = changed.length;
    handler.notify.resourcesChanged();
    for (let waited = 0; changed.length === before; waited += 25) {
      assert.ok(waited < 10_000, "the reopened stream carried no list change");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.deepEqual(updated, ["modern:test://readme"]);
  });

  test('era "legacy" skips the probe: the same server is spoken to in a 2025 revision', async () => {
    const legacy = new UpstreamManager(
      [{ kind: "http", name: "old", url, headers: {}, transport: "auto", disabled: false, era: "legacy" }],
      FAST,
    );
    try {
      const [status] = await legacy.start();
      assert.equal(status?.state, "ready", status?.error);
      assert.match(status?.protocolVersion ?? "", /^2025-/);
      assert.equal(textOf(await legacy.callTool("old", "add", { a: 1, b: 1 })), "2");
    } finally {
      await legacy.close();
    }
  });

  test("without hooks an input request fails the call clearly instead of hanging", async () => {
    const bare = new UpstreamManager(
      [{ kind: "http", name: "modern", url, headers: {}, transport: "auto", disabled: false }],
      FAST,
    );
    try {
      await bare.start();
      await assert.rejects(
        bare.callTool("modern", "approve", { what: "deploy" }),
        /modern\/approve failed: .*elicitation/,
      );
    } finally {
      await bare.close();
    }
  });
});
