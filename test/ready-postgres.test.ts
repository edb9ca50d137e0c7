import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import { serveHttp } from "../src/server/http/http-server.ts";
import { openPostgresStore } from "../src/store/postgres/postgres-store.ts";
import { type LoopbackProxy, startLoopbackProxy } from "./helpers/loopback-proxy.ts";
import { type PostgresCluster, startPostgres } from "./helpers/postgres-cluster.ts";

describe("/ready on a PostgreSQL store", () => {
  let cluster: PostgresCluster;
  let proxy: LoopbackProxy;
  before(async () => {
    cluster = await startPostgres();
    proxy = await startLoopbackProxy(cluster.port);
  });
  after(async () => {
    await proxy?.close();
    await cluster?.stop();
  });

  test("the store cut off: /ready is 503 naming the store (no password) until it answers again", async () => {
    const direct = new URL(await cluster.createDatabase("ready"));
    direct.port = String(proxy.port);
    direct.password = "not-shown";
    const store = await openPostgresStore({ url: direct.href, connectionTimeoutMs: 1000 });
    const gateway = new Gateway({ config: { mcpServers: {}, toolscript: {} }, store });
    await gateway.start({ sandbox: false });
    const running = await serveHttp(gateway, { host: "127.0.0.1", port: 0, token: "secret-token" });
    const origin = new URL(running.url).origin;
    try {
      assert.equal((await fetch(`${origin}/ready`)).status, 200);

      proxy.cut();
      const down = await fetch(`${origin}/ready`);
      assert.equal(down.status, 503);
      const body = (await down.json()) as { problems: Array<{ what: string; state: string; why?: string }> };
      assert.equal(body.problems.length, 1);
      assert.match(body.problems[0]?.what ?? "", /^store postgres:\/\/.*127\.0\.0\.1/);
      assert.equal(body.problems[0]?.state, "unreachable");
      assert.doesNotMatch(JSON.stringify(body), /not-shown/);
      // The process itself is alive: liveness does not depend on the store.
      assert.equal((await fetch(`${origin}/health`)).status, 200);

      proxy.restore();
      const deadline = Date.now() + 10_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await fetch(`${origin}/ready`)).status;
        if (status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(status, 200, "ready again once the store answers");
    } finally {
      await running.close();
      await gateway.close();
    }
  });
});
