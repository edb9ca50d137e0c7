import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, type McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { Gateway } from "../gateway/gateway.ts";
import { connectionOf } from "./client-connection.ts";
import { createMcpServer } from "./create-mcp-server.ts";
import { extendFrontEnd } from "./front-end-extensions.ts";

// The per-connection handle the gateway forwards through: a real 2.x client over an
// in-memory link to a server made by createMcpServer (2025-era handshake).

describe("ClientConnection (connectionOf)", () => {
  const gateway = new Gateway({ config: { mcpServers: {} } });
  let server: McpServer;
  let client: Client;
  const logs: Array<{ level: string; data: unknown }> = [];
  const progress: number[] = [];
  let probeDone: () => void = () => {};
  let releaseProbe: () => void = () => {};

  before(async () => {
    await gateway.start();
    // A tool added through the extension hook (as pass-through will): it reports progress and logs while running.
    extendFrontEnd(gateway, (mcp, connection) => {
      mcp.registerTool("probe", { inputSchema: z.object({}) }, async (_args, ctx) => {
        const untrack = connection.track(ctx);
        try {
          const token = ctx.mcpReq._meta?.progressToken;
          if (token !== undefined) await connection.progress(token, 1, 2, "half");
          await connection.log("debug", "hidden below the level");
          await connection.log("warning", "shown");
          probeDone();
          await new Promise<void>((resolve) => {
            releaseProbe = resolve;
          });
          return { content: [{ type: "text", text: "done" }] };
        } finally {
          untrack();
        }
      });
    });
    server = createMcpServer(gateway);
    client = new Client(
      { name: "handle-test", version: "1" },
      { capabilities: { elicitation: {}, roots: {} } },
    );
    client.setNotificationHandler("notifications/message", (notification) => {
      logs.push({ level: notification.params.level, data: notification.params.data });
    });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { ok: true } }));
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
  });
  after(async () => {
    await client.close();
    await server.close();
    await gateway.close();
  });

  it("knows the client's era, protocol version and capabilities", () => {
    const connection = connectionOf(server);
    assert.equal(connection.era(), "legacy");
    assert.equal(connection.protocolVersion(), client.getNegotiatedProtocolVersion());
    assert.ok(connection.capabilities()?.elicitation);
    assert.equal(connection.sampling(), undefined, "the client declared no sampling");
    assert.equal(connection.elicitation("url"), undefined, "a bare elicitation capability is form only");
  });

  it("sends progress by token and log messages at or above the client's level", async () => {
    await client.setLoggingLevel("info");
    const done = new Promise<void>((resolve) => {
      probeDone = resolve;
    });
    const call = client.callTool(
      { name: "probe", arguments: {} },
      { onprogress: (p) => progress.push(p.progress) },
    );
    // A probe that fails answers the call instead of hanging the test.
    await Promise.race([done, call]);
    releaseProbe();
    await call;
    assert.deepEqual(progress, [1]);
    assert.deepEqual(logs, [{ level: "warning", data: "shown" }]);
  });

  it("forwards elicitation and roots requests to the client", async () => {
    const connection = connectionOf(server);
    const elicit = connection.elicitation();
    assert.ok(elicit);
    const answer = await elicit({
      mode: "form",
      message: "ok?",
      requestedSchema: { type: "object", properties: {} },
    });
    assert.equal(answer.action, "accept");
    const roots = connection.roots();
    assert.ok(roots);
    assert.deepEqual(
      (await roots()).roots.map((root) => root.name),
      ["work"],
    );
  });
});
