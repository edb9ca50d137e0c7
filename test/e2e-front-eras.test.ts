import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  Client as Client2,
  StreamableHTTPClientTransport as HttpTransport2,
} from "@modelcontextprotocol/client";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransport1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Gateway } from "../src/gateway/gateway.ts";
import { type RunningHttpServer, serveHttp } from "../src/server/http/http-server.ts";
import { SCRIPTED_JS } from "./helpers/servers.ts";

// Both protocol eras on one HTTP endpoint of an in-process gateway: stock SDK 1.x
// and 2.x clients (2025-era sessions), the 2.x client negotiating 2026-07-28
// (stateless), and the wire details of the new revision checked by raw requests.

const MODERN = "2026-07-28";
const APPROVED_CALL = "return await tools.scripted.echo({ message: 'hi' })";

interface ToolAnswer {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: { result?: unknown; error?: { name: string; message: string } };
  isError?: boolean;
}

const textOf = (answer: ToolAnswer) => (answer.content ?? []).map((part) => part.text ?? "").join("\n");

function modernClient(approve?: boolean): Client2 {
  const client = new Client2(
    { name: "modern-test", version: "1" },
    {
      versionNegotiation: { mode: "auto" },
      ...(approve !== undefined && { capabilities: { elicitation: { form: {} } } }),
    },
  );
  if (approve !== undefined)
    client.setRequestHandler("elicitation/create", async () =>
      approve ? { action: "accept", content: { approve: true } } : { action: "decline" },
    );
  return client;
}

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const data = text.startsWith("{")
    ? text
    : (text.split("\n").find((line) => line.startsWith("data: {")) ?? "data: {}").slice(6);
  return { status: response.status, json: JSON.parse(data) as Record<string, unknown>, text };
}

const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
};
const modernHeaders = (method: string, name?: string) => ({
  "mcp-protocol-version": MODERN,
  "mcp-method": method,
  ...(name !== undefined && { "mcp-name": name }),
});

describe("HTTP front end, both protocol eras", () => {
  let gateway: Gateway;
  let running: RunningHttpServer;

  before(async () => {
    gateway = new Gateway({
      config: {
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: { sandbox: { timeoutMs: 10_000, memoryMb: 64 }, policy: { approve: ["scripted/echo"] } },
      },
    });
    await gateway.start();
    running = await serveHttp(gateway, { host: "127.0.0.1", port: 0, allowUnauthenticatedLoopback: true });
  });
  after(async () => {
    await running.close();
    await gateway.close();
  });

  test("a 2.x client negotiates 2026-07-28 and runs execute_code with no session", async () => {
    const client = modernClient();
    await client.connect(new HttpTransport2(new URL(running.url)));
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
      const answer = (await client.callTool({
        name: "execute_code",
        arguments: { code: "return 6 * 7" },
      })) as ToolAnswer;
      assert.equal(answer.structuredContent?.result, 42, textOf(answer));
      assert.equal(running.sessionCount(), 0, "the stateless era opens no session");
    } finally {
      await client.close();
    }
  });

  test("a stock 1.x client and a 2.x client in legacy mode run execute_code over a session", async () => {
    const one = new Client1({ name: "sdk1", version: "1" });
    await one.connect(new HttpTransport1(new URL(running.url)));
    const two = new Client2({ name: "sdk2-legacy", version: "1" });
    await two.connect(new HttpTransport2(new URL(running.url)));
    try {
      assert.equal(running.sessionCount(), 2);
      const first = await one.callTool({ name: "execute_code", arguments: { code: "return 'one'" } });
      assert.equal((first.structuredContent as { result?: unknown }).result, "one");
      const second = (await two.callTool({
        name: "execute_code",
        arguments: { code: "return 'two'" },
      })) as ToolAnswer;
      assert.equal(second.structuredContent?.result, "two");
      assert.notEqual(two.getNegotiatedProtocolVersion(), MODERN);
    } finally {
      await one.close();
      await two.close();
    }
  });

  test("approvals: input-required rounds with a 2026-07-28 client, accepted and declined", async () => {
    for (const approve of [true, false]) {
      const client = modernClient(approve);
      await client.connect(new HttpTransport2(new URL(running.url)));
      try {
        const answer = (await client.callTool({
          name: "execute_code",
          arguments: { code: APPROVED_CALL },
        })) as ToolAnswer;
        if (approve) assert.equal(answer.structuredContent?.result, "hi", textOf(answer));
        else assert.match(textOf(answer), /approv|denied|refused/i);
        assert.equal(answer.isError === true, !approve, textOf(answer));
      } finally {
        await client.close();
      }
    }
  });

  test("approvals: elicitation with a 2025-era client; refused clearly when a client can do neither", async () => {
    const asked: string[] = [];
    const approving = new Client1(
      { name: "sdk1-approver", version: "1" },
      { capabilities: { elicitation: {} } },
    );
    approving.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: true } };
    });
    await approving.connect(new HttpTransport1(new URL(running.url)));
    const silent = modernClient();
    await silent.connect(new HttpTransport2(new URL(running.url)));
    try {
      const answer = await approving.callTool({ name: "execute_code", arguments: { code: APPROVED_CALL } });
      assert.equal((answer.structuredContent as { result?: unknown }).result, "hi");
      assert.equal(asked.length, 1);
      assert.match(asked[0] ?? "", /scripted\/echo/);
      const refused = (await silent.callTool({
        name: "execute_code",
        arguments: { code: APPROVED_CALL },
      })) as ToolAnswer;
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /approv/i);
    } finally {
      await approving.close();
      await silent.close();
    }
  });

  test("server/discover answers without a session; lists carry cache hints", async () => {
    const discover = await post(
      running.url,
      { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope } },
      modernHeaders("server/discover"),
    );
    assert.equal(discover.status, 200, discover.text);
    const result = discover.json.result as {
      supportedVersions?: string[];
      capabilities?: Record<string, unknown>;
    };
    assert.ok(result.supportedVersions?.includes(MODERN), discover.text);
    assert.ok(result.capabilities?.tools, discover.text);
    const list = await post(
      running.url,
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope } },
      modernHeaders("tools/list"),
    );
    const tools = list.json.result as { tools: Array<{ name: string }>; ttlMs?: number; cacheScope?: string };
    assert.ok(
      tools.tools.some((tool) => tool.name === "execute_code"),
      list.text,
    );
    assert.equal(typeof tools.ttlMs, "number", list.text);
    assert.equal(tools.cacheScope, "private");
  });

  test("Mcp-Method / Mcp-Name headers that disagree with the body are refused with the request's id", async () => {
    const body = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "list_tools", arguments: {}, _meta: envelope },
    };
    const wrongMethod = await post(running.url, body, modernHeaders("tools/list", "list_tools"));
    assert.equal(wrongMethod.status, 400, wrongMethod.text);
    assert.equal(wrongMethod.json.id, 7);
    assert.ok((wrongMethod.json.error as { code: number }).code < 0);
    const wrongName = await post(running.url, body, modernHeaders("tools/call", "search_tools"));
    assert.equal(wrongName.status, 400, wrongName.text);
    const right = await post(running.url, body, modernHeaders("tools/call", "list_tools"));
    assert.equal(right.status, 200, right.text);
  });

  test("an unknown catalog resource is resource-not-found (-32602 with its URI), in both eras", async () => {
    const uri = "toolscript://servers/nowhere/index.d.ts";
    const modern = await post(
      running.url,
      { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri, _meta: envelope } },
      modernHeaders("resources/read", uri),
    );
    const error = modern.json.error as { code: number; data?: { uri?: string } };
    assert.equal(error.code, -32602, modern.text);
    assert.equal(error.data?.uri, uri);
    const legacy = new Client1({ name: "sdk1-resources", version: "1" });
    await legacy.connect(new HttpTransport1(new URL(running.url)));
    try {
      await assert.rejects(
        legacy.readResource({ uri: "toolscript://skills/none.ts" }),
        (thrown: { code?: number }) => {
          assert.equal(thrown.code, -32602);
          return true;
        },
      );
    } finally {
      await legacy.close();
    }
  });

  test("2025-era SSE streams carry event ids and resume with Last-Event-ID", async () => {
    const legacyHeaders = { "mcp-protocol-version": "2025-11-25" };
    const init = await fetch(running.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...legacyHeaders,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    });
    const session = init.headers.get("mcp-session-id");
    assert.ok(session, "initialize opens a session");
    await init.text();
    const headers = { ...legacyHeaders, "mcp-session-id": session };
    await post(running.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    const call = await post(
      running.url,
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "execute_code", arguments: { code: "return 'resumed'" } },
      },
      headers,
    );
    const ids = [...call.text.matchAll(/^id: (.+)$/gm)].map((match) => match[1] as string);
    assert.ok(ids.length >= 2, `a priming event and the result, with ids:\n${call.text}`);
    assert.match(call.text, /resumed/);
    // As if the stream broke after its first event: the rest is replayed on a GET.
    const controller = new AbortController();
    const replay = await fetch(running.url, {
      method: "GET",
      headers: { accept: "text/event-stream", ...headers, "last-event-id": ids[0] as string },
      signal: controller.signal,
    });
    assert.equal(replay.status, 200);
    const reader = (replay.body as ReadableStream<Uint8Array>).getReader();
    let replayed = "";
    while (!replayed.includes("resumed")) {
      const { value, done } = await reader.read();
      if (done) break;
      replayed += new TextDecoder().decode(value);
    }
    controller.abort();
    assert.match(replayed, /"id":2/);
    assert.match(replayed, new RegExp(`id: ${ids.at(-1)}`));
    await fetch(running.url, { method: "DELETE", headers });
  });
});
