import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { execute } from "./helpers/mcp-client.ts";
import { type AsyncCliRun, runCliAsync } from "./helpers/run-cli-async.ts";
import { cliArgs, FILESYSTEM_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const TOKEN = "anomaly-token-0123456789";

/** Polls `check` until it returns true or `timeoutMs` passes: the gateway's stderr and its audit batches arrive on their own time. */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The value of one series in a Prometheus text exposition; NaN when absent. */
function seriesValue(text: string, series: string): number {
  return Number(new RegExp(`^${series.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);
}

describe("toolscript serve --http: anomaly detection end to end", () => {
  const dir = tempDir("e2e-anomalies");
  const config = join(dir.path, "toolscript.config.json");
  const files = join(dir.path, "files");
  let child: ChildProcess;
  let origin = "";
  let stderr = "";

  before(async () => {
    mkdirSync(files);
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          scripted: { command: process.execPath, args: [SCRIPTED_JS] },
          filesystem: { command: process.execPath, args: [FILESYSTEM_JS, files] },
        },
        toolscript: {
          storage: { dir: join(dir.path, "data") },
          policy: { deny: ["scripted/pid"] },
          // Defaults but for errors, so that one gateway shows log, approve and block.
          anomalies: { responses: { errors: "block" } },
          server: { http: { token: TOKEN } },
        },
      }),
    );
    child = spawn(process.execPath, cliArgs("serve", "--config", config, "--http", "127.0.0.1:0"), {
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gateway did not start: ${stderr}`)), 60_000);
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => {
        stderr += chunk;
        const url = /serving MCP over Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
        if (url && !origin && /scripted: ready/.test(stderr) && /filesystem: ready/.test(stderr)) {
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

  /** A stock SDK client; with `answer`, it supports elicitation and answers approvals so, noting the questions. */
  async function connect(answer?: "accept" | "decline", asked: string[] = []): Promise<Client> {
    const client = new Client(
      { name: "e2e-anomalies", version: "1.0.0" },
      answer ? { capabilities: { elicitation: { form: {} } } } : {},
    );
    if (answer)
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        return answer === "accept" ? { action: "accept", content: { approve: true } } : { action: "decline" };
      });
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
        "try { await tools.scripted.pid({}); } catch (error) { return error.code; }",
        "try { await tools.scripted.fail({}); } catch (error) { return error.name; }",
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
        "const codes = []; for (let i = 0; i < 15; i++) { try { await tools.scripted.pid({}); } catch (error) { codes.push(error.code); } } return codes;",
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
    // The lines travel on the stderr pipe, which may be read after the answers.
    await eventually(() => (stderr.match(/anomaly: session "default:noisy"/g) ?? []).length >= 2);
    assert.match(
      stderr,
      /anomaly: session "default:noisy": burst of 200 calls in 10 s \(its usual 0, the gateway's \S+\); response: log/,
    );
    assert.match(stderr, /anomaly: session "default:noisy": 8 policy denials in 60 s .*; response: approve/);
    assert.doesNotMatch(stderr, /anomaly: session "[^"]*ordinary/);

    // Records are batched (~50 ms); the CLI reads the same database while the gateway serves.
    let listed: AsyncCliRun = { code: -1, stdout: "", stderr: "" };
    await eventually(async () => {
      listed = await runCliAsync(dir.path, ["audit", "--anomalies", "--config", config]);
      return listed.code !== 0 || listed.stdout.trim().split("\n").length >= 2;
    }, 30_000);
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
  /** A program that writes `content` to a file and returns "written" or the refusal's code. */
  const write = (content: string) =>
    `try { await tools.filesystem.write_file({ path: ${JSON.stringify(join(files, "out.txt"))}, content: ${JSON.stringify(content)} }); return "written"; } catch (error) { return error.code; }`;

  test("approve: after a denials spike, the session's side-effecting calls are asked about through elicitation", async () => {
    const asked: string[] = [];
    const declining = await connect("decline", asked);
    const plain = await connect();
    const accepting = await connect("accept", asked);
    try {
      const probe = await execute(
        declining,
        "for (let i = 0; i < 10; i++) { try { await tools.scripted.pid({}); } catch {} } return 'probed';",
        { session: "prober" },
      );
      assert.equal(probe.structured.result, "probed", probe.text);
      // Read-only calls go on as before; writes are asked about, and refused without a yes.
      const read = await execute(declining, "return await tools.scripted.echo({ message: 'r' })", {
        session: "prober",
      });
      assert.equal(read.structured.result, "r");
      assert.equal(
        (await execute(declining, write("a"), { session: "prober" })).structured.result,
        "anomaly.declined",
      );
      assert.equal(
        (await execute(plain, write("b"), { session: "prober" })).structured.result,
        "anomaly.no_approver",
      );
      assert.equal(
        (await execute(accepting, write("c"), { session: "prober" })).structured.result,
        "written",
      );
      assert.equal(asked.length, 2);
      assert.match(
        asked[0] ?? "",
        /filesystem\/write_file\?\nReason: session "prober" had anomaly "denials" \(8 policy denials in 60 s/,
      );
      // Another session's writes are not asked about.
      assert.equal((await execute(plain, write("d"), { session: "writer" })).structured.result, "written");
    } finally {
      await Promise.all([declining.close(), plain.close(), accepting.close()]);
    }
  });

  test("block: an errors spike refuses the session's further calls and executions (anomaly.blocked); others still run", async () => {
    const client = await connect();
    try {
      const flaky = await execute(
        client,
        "const codes = []; for (let i = 0; i < 30; i++) { try { await tools.scripted.fail({}); } catch (error) { codes.push(error.code ?? error.name); } } return codes;",
        { session: "flaky" },
      );
      const codes = flaky.structured.result as string[];
      assert.equal(codes.length, 30, flaky.text);
      // The 25th failure alerted and blocked the session: its later calls never reach the upstream.
      assert.deepEqual(codes.slice(25), Array(5).fill("anomaly.blocked"));
      assert.ok(!codes.slice(0, 25).includes("anomaly.blocked"));
      const refused = await execute(client, "return 1", { session: "flaky" });
      assert.equal(refused.isError, true);
      assert.equal(refused.structured.error?.name, "AnomalyBlocked");
      assert.match(
        refused.text,
        /refused \(anomaly\.blocked\): session "flaky" is blocked after anomaly "errors" \(25 failed calls in 60 s .*\); lifted at .*toolscript\.anomalies\.responseTtlSeconds/,
      );
      const other = await execute(client, "return await tools.scripted.echo({ message: 'fine' })", {
        session: "steady",
      });
      assert.equal(other.structured.result, "fine", other.text);
    } finally {
      await client.close();
    }
    await eventually(() => stderr.includes('anomaly: session "default:flaky"'));
    assert.match(stderr, /anomaly: session "default:flaky": 25 failed calls in 60 s .*; response: block/);
    assert.equal(seriesValue(await metrics(), 'toolscript_anomalies_total{kind="errors"}'), 1);
  });
});
