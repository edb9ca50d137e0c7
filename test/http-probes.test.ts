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

  async function serve(mcpServers: Record<string, unknown>, toolscript: Record<string, unknown> = {}) {
    const gateway = new Gateway({
      config: {
        mcpServers,
        toolscript: {
          storage: { dir: `${dir.path}/${closers.length}` },
          upstream: { restart: { maxRetries: 0 } },
          ...toolscript,
        },
      },
    });
    closers.push(() => gateway.close());
    await gateway.start();
    const running = await serveHttp(gateway, { host: "127.0.0.1", port: 0, token: "secret-token" });
    closers.push(() => running.close());
    return { origin: new URL(running.url).origin, gateway };
  }

  test("every server ready: /health and /ready answer 200 without a token; /mcp still wants one", async () => {
    const { origin } = await serve({ scripted: { command: process.execPath, args: [SCRIPTED_JS] } });
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
    const { origin } = await serve({
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

  test("/metrics: Prometheus text with the same token as /mcp; counters follow executions, calls and denials", async () => {
    const { origin, gateway } = await serve(
      { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      { policy: { deny: ["scripted/fail"] } },
    );
    const program = [
      'await tools.scripted.echo({ message: "a" });',
      'await tools.scripted.echo({ message: "b" });',
      "try { await tools.scripted.fail({}); } catch {}",
      "return 1;",
    ].join("\n");
    assert.equal((await gateway.execute(program)).error, undefined);
    assert.equal((await gateway.execute("throw new Error('no')")).error?.kind, "runtime");
    assert.equal((await fetch(`${origin}/metrics`)).status, 401);
    const response = await fetch(`${origin}/metrics`, { headers: { authorization: "Bearer secret-token" } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /text\/plain/);
    const text = await response.text();
    const value = (series: string) =>
      Number(new RegExp(`^${series.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);
    assert.equal(value('toolscript_executions_total{outcome="ok",kind="none",language="typescript"}'), 1);
    assert.equal(
      value('toolscript_executions_total{outcome="error",kind="runtime",language="typescript"}'),
      1,
    );
    assert.equal(value('toolscript_tool_calls_total{server="scripted",tool="echo",outcome="ok"}'), 2);
    assert.equal(value("toolscript_policy_denials_total"), 1);
    assert.equal(value('toolscript_execution_duration_seconds_count{outcome="ok"}'), 1);
    assert.equal(value('toolscript_upstream_up{server="scripted"}'), 1);
    assert.equal(value('toolscript_upstream_restarts_total{server="scripted"}'), 0);
    assert.match(text, /^toolscript_process_cpu_seconds_total /m);
    assert.match(text, /^# HELP toolscript_tool_call_duration_seconds /m);
  });

  test("/metrics: tokens in and out and kept out of context, personal data tokenized, busy refusals, queue and sandbox pools", async () => {
    const { origin, gateway } = await serve(
      { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      { privacy: { pii: true }, sandbox: { maxConcurrent: 1, maxQueued: 0 } },
    );
    const slow = gateway.execute('await tools.scripted.slow({ ms: 1000 }); return "done";');
    // Once its program runs in a sandbox (after the type check), the one slot is taken.
    for (let waited = 0; gateway.sandboxPools()[0]?.running !== 1; waited += 20) {
      assert.ok(waited < 10_000, "the slow program never started");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Nothing may queue: refused at once.
    const refused = await gateway.execute("return 1;");
    assert.equal(refused.error?.code, "gateway.busy");
    const scrape = async () => {
      const response = await fetch(`${origin}/metrics`, {
        headers: { authorization: "Bearer secret-token" },
      });
      const text = await response.text();
      return (series: string) =>
        Number(new RegExp(`^${series.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);
    };
    const during = await scrape();
    assert.equal(during("toolscript_executions_running"), 1);
    assert.equal(during("toolscript_queue_depth"), 0);
    assert.equal(during('toolscript_sandbox_pool{tier="isolate",state="running"}'), 1);
    assert.equal((await slow).result, "done");
    const answer = await gateway.execute(
      'const rows = await tools.scripted.rows({ count: 50 }); return "write to ada@example.com and bob@example.org: " + JSON.stringify(rows).length;',
    );
    assert.equal(answer.error, undefined);
    assert.match(String(answer.result), /\[EMAIL_1\]/);
    const after = await scrape();
    assert.equal(after("toolscript_busy_total"), 1);
    assert.equal(after('toolscript_pii_tokens_total{kind="EMAIL"}'), 2);
    assert.ok(after('toolscript_tokens_total{direction="in"}') > 10, "program tokens counted");
    assert.ok(after('toolscript_tokens_total{direction="out"}') > 5, "answer tokens counted");
    // 50 rows entered the sandbox and only their length came back.
    assert.ok(after("toolscript_tokens_kept_out_total") > 100);
    assert.ok(after("toolscript_tokens_saved_total") > 100);
    assert.equal(after('toolscript_sandbox_pool{tier="isolate",state="running"}'), 0);
    assert.ok(after('toolscript_sandbox_pool{tier="isolate",state="warm"}') >= 0);
  });
});
