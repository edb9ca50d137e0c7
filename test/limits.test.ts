import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Gateway } from "../src/gateway/gateway.ts";
import { serveHttp } from "../src/server/http/http-server.ts";
import { execute } from "./helpers/mcp-client.ts";
import { SCRIPTED_JS } from "./helpers/servers.ts";

function gatewayWith(toolscript: Record<string, unknown>): Gateway {
  return new Gateway({
    config: { mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } }, toolscript },
  });
}

describe("gateway limits", () => {
  const gateways: Gateway[] = [];
  after(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
  });

  test("beyond running + queued executions, execute answers busy at once", async () => {
    const gateway = gatewayWith({ sandbox: { maxConcurrent: 1, maxQueued: 1 } });
    gateways.push(gateway);
    await gateway.start();
    const slow = "await tools.scripted.slow({ ms: 400 }); return 'done'";
    const [first, second, third] = await Promise.all([
      gateway.execute(slow),
      gateway.execute(slow),
      gateway.execute(slow),
    ]);
    assert.equal(first?.result, "done");
    assert.equal(second?.result, "done", "the queued execution runs after the first");
    assert.equal(third?.error?.name, "BusyError");
    assert.match(third?.error?.message ?? "", /busy: 1 executions are running and 1 are queued/);
    assert.equal((await gateway.execute("return 1")).result, 1, "and the gateway keeps serving");
    // Being turned away for load is not a security violation.
    assert.deepEqual(gateway.violations("default"), {
      policy: 0,
      limit: 0,
      timeout: 0,
      memory: 0,
      escape: 0,
    });
  });

  test("calls over an upstream's calls-per-minute wait, and fail clearly when they cannot", async () => {
    const gateway = gatewayWith({ upstream: { callsPerMinute: 2, callTimeoutMs: 300 } });
    gateways.push(gateway);
    await gateway.start();
    const response = await gateway.execute(
      `const out = [];
       for (let i = 0; i < 3; i++) {
         try { out.push(await tools.scripted.echo({ message: String(i) })); }
         catch (error) { out.push(error.name + ": " + error.message); }
       }
       return out;`,
    );
    assert.deepEqual((response.result as string[]).slice(0, 2), ["0", "1"]);
    assert.match(
      (response.result as string[])[2] ?? "",
      /^ToolError: .*over the limit of 2 calls per minute/,
    );
  });

  test("per-execution bytes of tool results: a flood of results ends in a clear error", async () => {
    const gateway = gatewayWith({ sandbox: { maxResultBytes: 100_000 } });
    gateways.push(gateway);
    await gateway.start();
    const response = await gateway.execute(
      "for (let i = 0; i < 100; i++) await tools.scripted.rows({ count: 100 });",
    );
    assert.equal(response.error?.name, "LimitError", JSON.stringify(response.error));
    assert.match(response.error?.message ?? "", /100000 bytes of tool results/);
    assert.ok(response.toolResultBytes <= 100_000);
  });

  test("HTTP: executions per minute per client", async () => {
    const gateway = gatewayWith({});
    gateways.push(gateway);
    await gateway.start();
    const running = await serveHttp(gateway, {
      host: "127.0.0.1",
      port: 0,
      allowUnauthenticatedLoopback: true,
      executionsPerMinute: 2,
    });
    const client = new Client({ name: "rate", version: "1" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      assert.equal((await execute(client, "return 1")).structured.result, 1);
      assert.equal((await execute(client, "return 2")).structured.result, 2);
      const third = await execute(client, "return 3");
      assert.equal(third.isError, true);
      assert.equal(third.structured.error?.name, "RateLimited");
    } finally {
      await client.close();
      await running.close();
    }
  });
});
