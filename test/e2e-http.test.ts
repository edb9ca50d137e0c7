import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { writeGatewayConfig } from "./helpers/gateway-config.ts";
import { execute } from "./helpers/mcp-client.ts";
import { cliArgs, freePort, tempDir } from "./helpers/servers.ts";

const TOKEN = "test-token-0123456789";

function rawPost(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once("error", reject);
    req.end(body);
  });
}

describe("toolscript serve --http", () => {
  const dir = tempDir("e2e-http");
  let child: ChildProcess;
  let port = 0;

  before(async () => {
    const data = join(dir.path, "data");
    mkdirSync(data);
    const config = writeGatewayConfig(dir.path, data);
    port = await freePort();
    child = spawn(process.execPath, cliArgs("serve", "--config", config, "--http", `127.0.0.1:${port}`), {
      env: { ...process.env, TOOLSCRIPT_HTTP_TOKEN: TOKEN },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      let seen = "";
      const timer = setTimeout(() => reject(new Error(`gateway did not start: ${seen}`)), 20_000);
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => {
        seen += chunk;
        if (seen.includes("serving MCP over Streamable HTTP")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`gateway exited with ${code}: ${seen}`)));
    });
  });

  after(async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    dir.remove();
  });

  async function connect(): Promise<Client> {
    const client = new Client({ name: "e2e-http", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    await client.connect(transport);
    return client;
  }

  test("refuses requests without the bearer token, or with a foreign Host or Origin", async () => {
    assert.equal(await rawPost(port, {}), 401);
    assert.equal(await rawPost(port, { authorization: "Bearer wrong" }), 401);
    assert.equal(
      await rawPost(port, { authorization: `Bearer ${TOKEN}`, host: `evil.example:${port}` }),
      403,
    );
    assert.equal(
      await rawPost(port, { authorization: `Bearer ${TOKEN}`, origin: "http://evil.example" }),
      403,
    );
  });

  test("serves many concurrent sessions", async () => {
    const clients = await Promise.all(Array.from({ length: 4 }, () => connect()));
    try {
      const answers = await Promise.all(
        clients.map((client, index) =>
          execute(client, `const r = await tools.scripted.add({ a: ${index}, b: 100 }); return r.sum;`),
        ),
      );
      assert.deepEqual(
        answers.map((answer) => answer.structured.result),
        [100, 101, 102, 103],
      );
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  test("the stdout of an HTTP gateway stays empty", () => {
    assert.equal(child.stdout?.read() ?? null, null);
  });
});
