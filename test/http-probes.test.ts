import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import { serveHttp } from "../src/server/http/http-server.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

describe("HTTP probes: /health and /ready", () => {
  const dir = tempDir("probes");
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
    dir.remove();
  });

  async function serve(mcpServers: Record<string, unknown>) {
    const gateway = new Gateway({
      config: {
        mcpServers,
        toolscript: {
          storage: { dir: `${dir.path}/${closers.length}` },
          upstream: { restart: { maxRetries: 0 } },
        },
      },
    });
    closers.push(() => gateway.close());
    await gateway.start();
    const running = await serveHttp(gateway, { host: "127.0.0.1", port: 0, token: "secret-token" });
    closers.push(() => running.close());
    return new URL(running.url).origin;
  }

  test("every server ready: /health and /ready answer 200 without a token; /mcp still wants one", async () => {
    const origin = await serve({ scripted: { command: process.execPath, args: [SCRIPTED_JS] } });
    const health = await fetch(`${origin}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok" });
    const ready = await fetch(`${origin}/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: "ready" });
    assert.equal((await fetch(`${origin}/mcp`, { method: "POST", body: "{}" })).status, 401);
    assert.equal((await fetch(`${origin}/elsewhere`)).status, 404);
  });

  test("a server that failed to start: /ready is 503 naming it and why; /health stays 200", async () => {
    const origin = await serve({
      scripted: { command: process.execPath, args: [SCRIPTED_JS] },
      broken: { command: process.execPath, args: ["-e", "process.stderr.write('no luck'); process.exit(3)"] },
    });
    assert.equal((await fetch(`${origin}/health`)).status, 200);
    const ready = await fetch(`${origin}/ready`);
    assert.equal(ready.status, 503);
    const body = (await ready.json()) as {
      status: string;
      problems: Array<{ what: string; state: string; why?: string }>;
    };
    assert.equal(body.status, "not_ready");
    assert.deepEqual(
      body.problems.map((problem) => [problem.what, problem.state]),
      [["server broken", "failed"]],
    );
    assert.ok((body.problems[0]?.why ?? "").length > 0);
  });
});
