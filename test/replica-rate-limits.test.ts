import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Gateway } from "../src/gateway/gateway.ts";
import { serveHttp } from "../src/server/http/http-server.ts";
import { openPostgresStore } from "../src/store/postgres/postgres-store.ts";
import { startLoopbackProxy } from "./helpers/loopback-proxy.ts";
import { execute } from "./helpers/mcp-client.ts";
import { type PostgresCluster, startPostgres } from "./helpers/postgres-cluster.ts";
import { SCRIPTED_JS } from "./helpers/servers.ts";

let cluster: PostgresCluster;
let databases = 0;
before(async () => {
  cluster = await startPostgres();
});
after(() => cluster?.stop());

/** A gateway on its own connection to the PostgreSQL store at `url`, as a replica would be. */
async function replica(url: string, toolscript: Record<string, unknown>): Promise<Gateway> {
  const store = await openPostgresStore({ url, connectionTimeoutMs: 1_000 });
  const gateway = new Gateway({
    config: { mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } }, toolscript },
    store,
  });
  await gateway.start();
  return gateway;
}

const ECHO_OR_ERROR = (message: string) =>
  `try { return await tools.scripted.echo({ message: "${message}" }); } catch (error) { return error.name + ": " + error.message; }`;

describe("rate limits across replicas on one PostgreSQL store", () => {
  const gateways: Gateway[] = [];
  after(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
  });

  test("upstream.callsPerMinute 3: 2 calls through A and 2 through B, the 4th is refused", async () => {
    const url = await cluster.createDatabase(`rates_${++databases}`);
    const settings = { upstream: { callsPerMinute: 3, callTimeoutMs: 300 } };
    const [a, b] = [await replica(url, settings), await replica(url, settings)];
    gateways.push(a, b);
    assert.equal((await a.execute(ECHO_OR_ERROR("a1"))).result, "a1");
    assert.equal((await b.execute(ECHO_OR_ERROR("b1"))).result, "b1");
    assert.equal((await a.execute(ECHO_OR_ERROR("a2"))).result, "a2");
    const fourth = await b.execute(ECHO_OR_ERROR("b2"));
    assert.match(String(fourth.result), /^ToolError: .*over the limit of 3 calls per minute to "scripted"/);
    // Each replica alone is under the limit: only the shared window refuses.
    const refusedOnA = await a.execute(ECHO_OR_ERROR("a3"));
    assert.match(String(refusedOnA.result), /over the limit of 3 calls per minute/);
  });

  test("HTTP executionsPerMinute 2 per client: one execution through each replica, the third is refused", async () => {
    const url = await cluster.createDatabase(`rates_${++databases}`);
    const [a, b] = [await replica(url, {}), await replica(url, {})];
    gateways.push(a, b);
    const options = {
      host: "127.0.0.1",
      port: 0,
      allowUnauthenticatedLoopback: true,
      executionsPerMinute: 2,
    };
    const [httpA, httpB] = [await serveHttp(a, options), await serveHttp(b, options)];
    const [clientA, clientB] = [
      new Client({ name: "a", version: "1" }),
      new Client({ name: "b", version: "1" }),
    ];
    try {
      await clientA.connect(new StreamableHTTPClientTransport(new URL(httpA.url)));
      await clientB.connect(new StreamableHTTPClientTransport(new URL(httpB.url)));
      assert.equal((await execute(clientA, "return 1")).structured.result, 1);
      assert.equal((await execute(clientB, "return 2")).structured.result, 2);
      const third = await execute(clientA, "return 3");
      assert.equal(third.isError, true);
      assert.equal(third.structured.error?.name, "RateLimited");
    } finally {
      await Promise.all([clientA.close(), clientB.close()]);
      await Promise.all([httpA.close(), httpB.close()]);
    }
  });

  test("a store that fails refuses the execution, naming the store (fail closed), and serves again when it is back", async () => {
    const proxy = await startLoopbackProxy(cluster.port);
    try {
      const url = new URL(await cluster.createDatabase(`rates_${++databases}`));
      url.port = String(proxy.port);
      const gateway = await replica(url.toString(), {
        upstream: { callsPerMinute: 10, callTimeoutMs: 3_000 },
      });
      gateways.push(gateway);
      assert.equal((await gateway.execute(ECHO_OR_ERROR("before"))).result, "before");
      proxy.cut();
      // The execution stops at its first store access (the session), before any call goes out;
      // the rate limit's own fail-closed path is unit-tested in shared-rate-limit.test.ts.
      const during = await gateway.execute(ECHO_OR_ERROR("during"));
      assert.equal(during.error?.name, "StoreUnavailable", JSON.stringify(during));
      assert.match(during.error?.message ?? "", /127\.0\.0\.1/);
      proxy.restore();
      const deadline = Date.now() + 15_000;
      let later = (await gateway.execute(ECHO_OR_ERROR("after"))).result;
      while (later !== "after" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        later = (await gateway.execute(ECHO_OR_ERROR("after"))).result;
      }
      assert.equal(later, "after", "served again once the store is back");
    } finally {
      await proxy.close();
    }
  });
});
