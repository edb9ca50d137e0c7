import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { openSqliteSharedStore } from "../src/store/sqlite-shared-store.ts";
import type { AuditRecord } from "../src/store/types.ts";
import { execute, textOf } from "./helpers/mcp-client.ts";
import { cliArgs, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

// Two clients with their own tokens against a real `toolscript serve --http` process.
const ALICE = "alice-token-0123456789";
const BOB = "bob-token-9876543210";
const CAP = 3;

interface RawAnswer {
  status: number;
  body: string;
}

function raw(
  port: number,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.once("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe("toolscript serve --http with several clients", () => {
  const dir = tempDir("e2e-http-clients");
  const data = join(dir.path, "data");
  let child: ChildProcess;
  let port = 0;
  const open: Client[] = [];

  before(async () => {
    mkdirSync(data);
    const config = join(dir.path, "toolscript.config.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: {
          sandbox: { timeoutMs: 10_000, memoryMb: 64 },
          storage: { dir: data },
          policy: { approve: ["scripted/echo"] },
          server: {
            http: {
              // biome-ignore lint/suspicious/noTemplateCurlyInString: a config reference, expanded by the gateway.
              clients: { alice: "${ALICE_TOKEN}", bob: BOB },
              maxSessionsPerClient: CAP,
            },
          },
        },
      }),
    );
    child = spawn(process.execPath, cliArgs("serve", "--config", config, "--http", "127.0.0.1:0"), {
      env: { ...process.env, ALICE_TOKEN: ALICE, TOOLSCRIPT_HTTP_TOKEN: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    port = await new Promise<number>((resolve, reject) => {
      let seen = "";
      const timer = setTimeout(() => reject(new Error(`gateway did not start: ${seen}`)), 30_000);
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => {
        seen += chunk;
        const match =
          /serving MCP over Streamable HTTP at http:\/\/127\.0\.0\.1:(\d+)\/mcp \(clients: alice, bob\)/.exec(
            seen,
          );
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once("exit", (code) => reject(new Error(`gateway exited with ${code}: ${seen}`)));
    });
  });

  after(async () => {
    await Promise.allSettled(open.map((client) => client.close()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    dir.remove();
  });

  /**
   * A stock SDK client. `withoutGetStream`: its fetch answers the standalone GET
   * stream with 405 itself, so the server never sees one (counted in `gets`).
   */
  async function connect(
    token: string,
    options: { withoutGetStream?: boolean; approve?: () => Promise<boolean> } = {},
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport; gets: () => number }> {
    let gets = 0;
    const client = new Client(
      { name: "e2e-http-clients", version: "1.0.0" },
      { capabilities: options.approve ? { elicitation: {} } : {} },
    );
    const approve = options.approve;
    if (approve) {
      client.setRequestHandler(ElicitRequestSchema, async () =>
        (await approve()) ? { action: "accept", content: { approve: true } } : { action: "decline" },
      );
    }
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      ...(options.withoutGetStream && {
        fetch: async (url: string | URL, init?: RequestInit) => {
          if ((init?.method ?? "GET").toUpperCase() === "GET") {
            gets++;
            return new Response(null, { status: 405 });
          }
          return fetch(url, init);
        },
      }),
    });
    await client.connect(transport);
    open.push(client);
    return { client, transport, gets: () => gets };
  }

  test("a 401 says how to send the token", async () => {
    const answer = await raw(port, "POST", {}, { jsonrpc: "2.0", id: 1, method: "ping" });
    assert.equal(answer.status, 401);
    assert.match(answer.body, /Authorization: Bearer <token>/);
    assert.match(answer.body, /toolscript\.server\.http\.clients/);
  });

  test("client B cannot use client A's Mcp-Session-Id: 404, and A's session lives on", async () => {
    const alice = await connect(ALICE, { withoutGetStream: true });
    const id = alice.transport.sessionId;
    assert.ok(id);
    const asBob = {
      authorization: `Bearer ${BOB}`,
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-06-18",
    };
    const post = await raw(port, "POST", asBob, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.equal(post.status, 404);
    assert.match(post.body, /unknown session/);
    assert.equal((await raw(port, "GET", asBob)).status, 404);
    assert.equal((await raw(port, "DELETE", asBob)).status, 404);
    // Bob's DELETE did not end it: Alice still works in her session.
    const answer = await execute(alice.client, "return 40 + 2");
    assert.equal(answer.structured.result, 42);
  });

  test("client B cannot read, write or search client A's named session, nor its MCP session", async () => {
    const alice = await connect(ALICE, { withoutGetStream: true });
    const bob = await connect(BOB, { withoutGetStream: true });
    const wrote = await execute(
      alice.client,
      'await workspace.writeFile("secret.txt", "alice-data"); return 1',
      {
        session: "alice-work",
      },
    );
    assert.equal(wrote.structured.result, 1, wrote.text);

    for (const code of [
      'return await workspace.readFile("secret.txt")',
      'await workspace.writeFile("secret.txt", "bob-was-here"); return 1',
      'await workspace.remove("secret.txt"); return 1',
    ]) {
      const refused = await execute(bob.client, code, { session: "alice-work" });
      assert.equal(refused.isError, true, refused.text);
      assert.equal(refused.structured.error?.name, "SessionError");
      assert.match(refused.structured.error?.message ?? "", /^unknown session "alice-work"$/);
      assert.doesNotMatch(refused.text, /alice-data/);
    }
    // Alice's MCP session id named as Bob's `session` argument: the same refusal.
    const aliceMcp = alice.transport.sessionId ?? "";
    const viaId = await execute(bob.client, "return (await workspace.list()).length", { session: aliceMcp });
    assert.equal(viaId.structured.error?.name, "SessionError");
    const search = await bob.client.callTool({
      name: "search_tools",
      arguments: { query: "echo", session: "alice-work" },
    });
    assert.equal(search.isError, true);
    assert.match(textOf(search), /unknown session/);
    const skill = await bob.client.callTool({
      name: "save_skill",
      arguments: {
        name: "planted",
        code: "export function f(): number { return 1; }",
        description: "A skill planted in someone else's session.",
        session: "alice-work",
        visibility: "private",
      },
    });
    assert.equal(skill.isError, true);
    assert.match(textOf(skill), /unknown session/);

    const back = await execute(alice.client, 'return await workspace.readFile("secret.txt")', {
      session: "alice-work",
    });
    assert.equal(back.structured.result, "alice-data", "Alice's file is untouched");
    // Bob's own sessions work as before.
    const own = await execute(bob.client, 'await workspace.writeFile("b.txt", "bob"); return 1', {
      session: "bob-work",
    });
    assert.equal(own.structured.result, 1, own.text);
  });

  test("audit records name the client", async () => {
    const alice = await connect(ALICE, { withoutGetStream: true });
    const bob = await connect(BOB, { withoutGetStream: true });
    await execute(alice.client, "return await tools.scripted.add({ a: 1, b: 2 })");
    await execute(bob.client, "return 1", { session: "alice-work" });
    const store = openSqliteSharedStore({ dir: data });
    try {
      // Records are written in batches a few milliseconds behind: read until they are there.
      let rows: AuditRecord[] = [];
      for (let attempt = 0; attempt < 200; attempt++) {
        rows = await store.audit.list({ limit: 1000 });
        const aliceAdd = rows.some((row) => row.client === "alice" && row.tool === "add");
        const bobRefused = rows.some((row) => row.client === "bob" && row.session === "alice-work");
        if (aliceAdd && bobRefused) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const add = rows.find((row) => row.kind === "tool_call" && row.tool === "add");
      assert.equal(add?.client, "alice");
      const refused = rows.find((row) => row.client === "bob" && row.session === "alice-work");
      assert.equal(refused?.kind, "execution");
      assert.match(refused?.outcome ?? "", /SessionError/);
      assert.ok(rows.every((row) => row.client === "alice" || row.client === "bob"));
    } finally {
      await store.close();
    }
  });

  test("approval elicitation reaches a client without GET stream, on the tools/call's POST stream", async () => {
    let asked = 0;
    const alice = await connect(ALICE, {
      withoutGetStream: true,
      approve: async () => {
        asked++;
        return true;
      },
    });
    const answer = await execute(alice.client, 'return await tools.scripted.echo({ message: "approved" })');
    assert.equal(answer.isError, false, answer.text);
    assert.equal(answer.structured.result, "approved");
    assert.equal(asked, 1);
    assert.ok(alice.gets() >= 1, "the client asked for a GET stream and never got one");
  });

  test("stock SDK clients that close() without DELETE (GET stream and all) never lock their client out", async () => {
    for (let round = 0; round < CAP + 2; round++) {
      const alice = await connect(ALICE);
      assert.equal((await execute(alice.client, `return ${round}`)).structured.result, round);
      await alice.client.close();
    }
    // Live ones too: past the cap the least recently used is closed, the newest works.
    const live = [];
    for (let i = 0; i < CAP + 1; i++) live.push(await connect(ALICE));
    assert.equal((await execute(live[CAP]?.client as Client, "return 7")).structured.result, 7);
    await assert.rejects(live[0]?.client.listTools() ?? Promise.resolve(), /unknown session/);
  });

  test("per-client cap: the least recently used idle session is closed, busy ones never, other clients untouched", async () => {
    // Alice's earlier sessions are idle: these new ones take their places.
    const bob = await connect(BOB, { withoutGetStream: true });
    const releases: Array<() => void> = [];
    const held = () =>
      new Promise<boolean>((resolve) => {
        releases.push(() => resolve(true));
      });
    const busy = [];
    for (let i = 0; i < CAP; i++) busy.push(await connect(ALICE, { withoutGetStream: true, approve: held }));
    // Each of Alice's sessions has a tools/call in progress (waiting on approval).
    const calls = busy.map((entry, index) =>
      execute(entry.client, `return await tools.scripted.echo({ message: "held ${index}" })`),
    );
    for (let wait = 0; releases.length < CAP && wait < 500; wait++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(releases.length, CAP, "every held call asked for approval");
    await assert.rejects(connect(ALICE, { withoutGetStream: true }), /429|open sessions/);
    for (const release of releases) release();
    const answers = await Promise.all(calls);
    assert.deepEqual(
      answers.map((answer) => answer.structured.result),
      [0, 1, 2].map((index) => `held ${index}`),
    );

    // Now idle; the first is made the least recently used, and a new session closes it.
    await busy[1]?.client.listTools();
    await busy[2]?.client.listTools();
    const fresh = await connect(ALICE, { withoutGetStream: true });
    assert.equal((await execute(fresh.client, "return 1")).structured.result, 1);
    await assert.rejects(
      busy[0]?.client.listTools() ?? Promise.resolve(),
      /404|Session not found|unknown session/i,
    );
    assert.ok(await busy[1]?.client.listTools());
    assert.ok(await bob.client.listTools(), "Bob's session is not Alice's to evict");
  });
});
