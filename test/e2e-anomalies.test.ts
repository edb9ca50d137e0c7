import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { execute } from "./helpers/mcp-client.ts";
import { runCliAsync } from "./helpers/run-cli-async.ts";
import { cliArgs, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const TOKEN = "anomaly-token-0123456789";

/** The value of one series in a Prometheus text exposition; NaN when absent. */
function seriesValue(text: string, series: string): number {
  return Number(new RegExp(`^${series.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);
}

describe("toolscript serve --http: anomaly detection end to end", () => {
  const dir = tempDir("e2e-anomalies");
  const config = join(dir.path, "toolscript.config.json");
  let child: ChildProcess;
  let origin = "";
  let stderr = "";

  before(async () => {
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: {
          storage: { dir: join(dir.path, "data") },
          policy: { deny: ["scripted/fail"] },
          server: { http: { token: TOKEN } },
        },
      }),
    );
    child = spawn(process.execPath, cliArgs("serve", "--config", config, "--http", "127.0.0.1:0"), {
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gateway did not start: ${stderr}`)), 30_000);
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => {
        stderr += chunk;
        const url = /serving MCP over Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
        if (url && !origin && /scripted: ready/.test(stderr)) {
          origin = url;
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`gateway exited with ${code}: ${stderr}`)));
    });
  });

  after(async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    dir.remove();
  });

  async function connect(): Promise<Client> {
    const client = new Client({ name: "e2e-anomalies", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    return client;
  }

  async function metrics(): Promise<string> {
    const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 200);
    return response.text();
  }

  test("a noisy session's burst and denials alert (record, metric, stderr line); ordinary sessions never do", async () => {
    const before = await metrics();
    assert.equal(seriesValue(before, 'toolscript_anomalies_total{kind="burst"}'), 0);
    assert.equal(seriesValue(before, 'toolscript_anomalies_total{kind="denials"}'), 0);
    const client = await connect();
    try {
      // Ordinary use, back to back: a first tiny execution, loops of 20-50 calls, an error caught.
      const ordinary = [
        "return 1;",
        "let sum = 0; for (let i = 0; i < 50; i++) sum += (await tools.scripted.add({ a: i, b: 1 })).sum; return sum;",
        "for (let i = 0; i < 20; i++) await tools.scripted.echo({ message: String(i) }); return 'ok';",
        "const rows = await tools.scripted.rows({ count: 200 }); return rows.length;",
        "for (let i = 0; i < 50; i++) await tools.scripted.echo({ message: 'again' }); return 'ok';",
        "try { await tools.scripted.fail({}); } catch (error) { return error.code; }",
      ];
      for (const session of ["ordinary-1", "ordinary-2"])
        for (const code of ordinary) {
          const answer = await execute(client, code, { session });
          assert.equal(answer.structured.error, undefined, answer.text);
        }
      // A busy but ordinary session: the same 50-call program twelve times without a pause.
      for (let run = 0; run < 12; run++) {
        const answer = await execute(client, ordinary[1] ?? "", { session: "ordinary-3" });
        assert.equal(answer.structured.error, undefined, answer.text);
      }
      // The noisy session: a burst of 400 calls, then a series of denied calls.
      const burst = await execute(
        client,
        "for (let i = 0; i < 400; i++) await tools.scripted.echo({ message: 'x' }); return 'done';",
        { session: "noisy" },
      );
      assert.equal(burst.structured.result, "done", burst.text);
      const denied = await execute(
        client,
        "const codes = []; for (let i = 0; i < 15; i++) { try { await tools.scripted.fail({}); } catch (error) { codes.push(error.code); } } return codes;",
        { session: "noisy" },
      );
      assert.equal(
        (denied.structured.result as string[]).filter((code) => code === "policy.denied").length,
        15,
      );
    } finally {
      await client.close();
    }

    const after = await metrics();
    assert.equal(seriesValue(after, 'toolscript_anomalies_total{kind="burst"}'), 1);
    assert.equal(seriesValue(after, 'toolscript_anomalies_total{kind="denials"}'), 1);
    assert.equal(seriesValue(after, 'toolscript_anomalies_total{kind="errors"}'), 0);
    assert.match(
      stderr,
      /anomaly: session "default:noisy": burst of 200 calls in 10 s \(its usual 0, the gateway's \S+\); response: log/,
    );
    assert.match(stderr, /anomaly: session "default:noisy": 8 policy denials in 60 s .*; response: approve/);
    assert.doesNotMatch(stderr, /anomaly: session "[^"]*ordinary/);

    // Records are batched (~50 ms); the CLI reads the same database while the gateway serves.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const listed = await runCliAsync(dir.path, ["audit", "--anomalies", "--config", config]);
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trim().split("\n");
    assert.equal(lines.length, 2, listed.stdout);
    for (const line of lines)
      assert.match(line, /^\S+Z {2}default:noisy {2}(burst|denials) {2}response=(log|approve) {2}\S/);
    const json = await runCliAsync(dir.path, [
      "audit",
      "--anomalies",
      "--json",
      "--session",
      "noisy",
      "--config",
      config,
    ]);
    const records = json.stdout
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as { kind: string; tool: string; outcome: string; detail: { why: string } },
      );
    assert.deepEqual(records.map((record) => [record.kind, record.tool, record.outcome]).sort(), [
      ["anomaly", "burst", "log"],
      ["anomaly", "denials", "approve"],
    ]);
    const none = await runCliAsync(dir.path, [
      "audit",
      "--anomalies",
      "--session",
      "ordinary-1",
      "--config",
      config,
    ]);
    assert.equal(none.stdout, "");
    assert.match(none.stderr, /^0 records/m);
  });
});
