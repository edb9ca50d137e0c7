// Pass-through wired end to end: server-everything (prefix "") and the scripted server
// (prefix "s__") offered on the gateway's front end, over HTTP to SDK 1.x and 2.x clients
// of both eras and over stdio (`toolscript serve`): lists, calls, prompts, resources,
// subscriptions, a policy refusal, upstream sampling and elicitation routed to the
// calling client (a request on its session, or input-required rounds in 2026-07-28),
// and upstream log messages at the level the client set.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  Client as Client2,
  StreamableHTTPClientTransport as HttpTransport2,
} from "@modelcontextprotocol/client";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpTransport1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Gateway } from "../src/gateway/gateway.ts";
import { ClientRouter } from "../src/server/forwarding/client-router.ts";
import { type RunningHttpServer, serveHttp } from "../src/server/http/http-server.ts";
import { textOf } from "./helpers/mcp-client.ts";
import { cliArgs, EVERYTHING_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const MODERN = "2026-07-28";

const config = (storage: string) => ({
  mcpServers: {
    everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] },
    scripted: { command: process.execPath, args: [SCRIPTED_JS] },
  },
  toolscript: {
    sandbox: { timeoutMs: 20_000, memoryMb: 64 },
    policy: { deny: ["everything/get-env"] },
    passThrough: { everything: { prefix: "" }, scripted: { prefix: "s__" } },
    storage: { dir: storage },
  },
});

describe("pass-through over HTTP, both eras", () => {
  const dir = tempDir("toolscript-pass-through-");
  let gateway: Gateway;
  let running: RunningHttpServer;

  before(async () => {
    gateway = new Gateway({ config: config(join(dir.path, "store")), clientRequests: new ClientRouter() });
    await gateway.start();
    running = await serveHttp(gateway, { host: "127.0.0.1", port: 0, allowUnauthenticatedLoopback: true });
  });
  after(async () => {
    await running.close();
    await gateway.close();
    dir.remove();
  });

  test("a 2.x client (2025 session) lists and calls passed-through tools, prompts and resources", async () => {
    const client = new Client2({ name: "legacy-2x", version: "1" });
    await client.connect(new HttpTransport2(new URL(running.url)));
    try {
      assert.notEqual(client.getNegotiatedProtocolVersion(), MODERN);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const name of ["execute_code", "echo", "get-sum", "s__echo", "s__huge_log"])
        assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
      const sum = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
      assert.match(textOf(sum), /5/);
      const echoed = await client.callTool({ name: "s__echo", arguments: { message: "through" } });
      assert.match(textOf(echoed), /through/);

      const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
      assert.ok(prompts.includes("simple-prompt"), prompts.join(", "));
      const prompt = await client.getPrompt({ name: "simple-prompt" });
      assert.ok(prompt.messages.length > 0);

      const resources = (await client.listResources()).resources;
      const gatewayOwn = resources.filter((resource) => resource.uri.startsWith("toolscript://"));
      const upstream = resources.filter((resource) => !resource.uri.startsWith("toolscript://"));
      assert.ok(gatewayOwn.length > 0 && upstream.length > 0, "the gateway's and the server's resources");
      const first = upstream[0] as { uri: string };
      const read = await client.readResource({ uri: first.uri });
      assert.equal(read.contents[0]?.uri, first.uri);
      await client.subscribeResource({ uri: first.uri });
      await client.unsubscribeResource({ uri: first.uri });
    } finally {
      await client.close();
    }
  });

  test("a denied passed-through tool is refused as a tool error and never reaches the server", async () => {
    const client = new Client1({ name: "sdk1", version: "1" });
    await client.connect(new HttpTransport1(new URL(running.url)));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(names.includes("get-env"), "listed as the server lists it");
      const refused = await client.callTool({ name: "get-env", arguments: {} });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /denied by policy\.deny/);
      await gateway.flushAudit();
      const denied = (await gateway.store?.audit.list({ denied: true })) ?? [];
      assert.ok(
        denied.some((record) => record.server === "everything" && record.tool === "get-env"),
        JSON.stringify(denied),
      );
    } finally {
      await client.close();
    }
  });

  test("sampling from a passed-through tool goes to the calling 2025-era client on its session", async () => {
    const client = new Client1({ name: "sampler", version: "1" }, { capabilities: { sampling: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      asked.push(request.params);
      return { role: "assistant", model: "test-model", content: { type: "text", text: "sampled answer" } };
    });
    await client.connect(new HttpTransport1(new URL(running.url)));
    try {
      const result = await client.callTool({
        name: "trigger-sampling-request",
        arguments: { prompt: "say hi", maxTokens: 5 },
      });
      assert.equal(asked.length, 1, textOf(result));
      assert.match(textOf(result), /sampled answer/);
    } finally {
      await client.close();
    }
  });

  test("elicitation from a passed-through tool reaches a 2026-07-28 client as input-required rounds", async () => {
    const client = new Client2(
      { name: "modern", version: "1" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } },
    );
    const asked: unknown[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return { action: "accept", content: { name: "Ada Lovelace" } };
    });
    await client.connect(new HttpTransport2(new URL(running.url)));
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(names.includes("trigger-elicitation-request"), names.join(", "));
      const result = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
      assert.equal(asked.length, 1, textOf(result));
      assert.match(textOf(result), /Ada Lovelace/);
    } finally {
      await client.close();
    }
  });

  test("a client that cannot answer sampling gets a clear refusal, not a hang", async () => {
    const client = new Client2({ name: "mute", version: "1" });
    await client.connect(new HttpTransport2(new URL(running.url)));
    try {
      const result = await client.callTool({
        name: "trigger-sampling-request",
        arguments: { prompt: "say hi", maxTokens: 5 },
      });
      assert.match(textOf(result), /sampling/i);
      assert.match(textOf(result), /did not declare the sampling capability|cannot be answered/);
    } finally {
      await client.close();
    }
  });

  test("upstream log messages reach the client at or above the level it set", async () => {
    const client = new Client2({ name: "listener", version: "1" });
    const logs: Array<{ level: string; logger?: string }> = [];
    client.setNotificationHandler("notifications/message", (notification) => {
      logs.push(notification.params as { level: string; logger?: string });
    });
    await client.connect(new HttpTransport2(new URL(running.url)));
    try {
      await client.setLoggingLevel("info");
      await client.callTool({ name: "s__huge_log", arguments: { bytes: 8 } });
      assert.ok(
        logs.some((entry) => entry.level === "info" && entry.logger === "scripted"),
        JSON.stringify(logs),
      );
      const before = logs.length;
      await client.setLoggingLevel("error");
      await client.callTool({ name: "s__huge_log", arguments: { bytes: 8 } });
      assert.equal(logs.length, before, "an info message is below the level now set");
    } finally {
      await client.close();
    }
  });
});

describe("pass-through over stdio (toolscript serve)", () => {
  test("a 1.x client lists and calls passed-through tools and answers sampling on its connection", async () => {
    const dir = tempDir("toolscript-pass-through-stdio-");
    const file = join(dir.path, "toolscript.config.json");
    writeFileSync(file, JSON.stringify(config(join(dir.path, "store"))));
    const client = new Client1({ name: "stdio", version: "1" }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: "from stdio" },
    }));
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: cliArgs("serve", "--config", file),
        stderr: "pipe",
      }),
    );
    try {
      const deadline = Date.now() + 30_000;
      let names: string[] = [];
      while (Date.now() < deadline) {
        names = (await client.listTools()).tools.map((tool) => tool.name);
        if (names.includes("get-sum") && names.includes("s__echo")) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.ok(names.includes("get-sum") && names.includes("s__echo"), names.join(", "));
      const sum = await client.callTool({ name: "get-sum", arguments: { a: 4, b: 5 } });
      assert.match(textOf(sum), /9/);
      const sampled = await client.callTool({
        name: "trigger-sampling-request",
        arguments: { prompt: "hi", maxTokens: 5 },
      });
      assert.match(textOf(sampled), /from stdio/);
    } finally {
      await client.close();
      dir.remove();
    }
  });
});
