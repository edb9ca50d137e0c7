import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import { FILESYSTEM_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

/** The codes of the errors a program caught, one per call, as it returns them. */
const DENIED_TWELVE = `
  const codes = [];
  for (let i = 0; i < 12; i++) {
    try { await tools.scripted.fail({}); } catch (error) { codes.push(error.code); }
  }
  return codes;`;

describe("anomaly responses on a gateway (block, approve)", () => {
  const dir = tempDir("anomalies");
  const gateways: Gateway[] = [];
  after(async () => {
    for (const gateway of gateways) await gateway.close();
    dir.remove();
  });

  async function start(toolscript: Record<string, unknown>): Promise<Gateway> {
    const files = join(dir.path, `files-${gateways.length}`);
    mkdirSync(files, { recursive: true });
    const gateway = new Gateway({
      config: {
        mcpServers: {
          scripted: { command: process.execPath, args: [SCRIPTED_JS] },
          filesystem: { command: process.execPath, args: [FILESYSTEM_JS, files] },
        },
        toolscript: {
          storage: { dir: join(dir.path, `data-${gateways.length}`) },
          sandbox: { typecheck: false },
          policy: { deny: ["scripted/fail"] },
          ...toolscript,
        },
      },
    });
    gateways.push(gateway);
    await gateway.start();
    return gateway;
  }

  test("block: a denials spike refuses the session's next execution (anomaly.blocked); others still run", async () => {
    const gateway = await start({ anomalies: { responses: { denials: "block" } } });
    const spike = await gateway.execute({ code: DENIED_TWELVE, session: "b" });
    const codes = spike.result as string[];
    assert.equal(codes.length, 12);
    // The eighth denial alerted and blocked the session: its later calls are refused by the block.
    assert.deepEqual(codes.slice(0, 8), Array(8).fill("policy.denied"));
    assert.deepEqual(codes.slice(8), Array(4).fill("anomaly.blocked"));
    const refused = await gateway.execute({ code: "return 1", session: "b" });
    assert.equal(refused.error?.code, "anomaly.blocked");
    assert.match(refused.error?.message ?? "", /blocked after anomaly "denials" \(8 policy denials in 60 s/);
    assert.match(
      refused.error?.message ?? "",
      /lifted at .*responseTtlSeconds.* or when the gateway restarts/,
    );
    const other = await gateway.execute({
      code: "return await tools.scripted.echo({ message: 'hi' })",
      session: "a",
    });
    assert.equal(other.error, undefined);
    assert.equal(other.result, "hi");
    await gateway.flushAudit();
    const alerts = (await gateway.store?.audit.list({ kind: "anomaly" })) ?? [];
    assert.deepEqual(
      alerts.map((alert) => [alert.session, alert.tool, alert.outcome]),
      [["b", "denials", "block"]],
    );
    assert.match(await gateway.metrics.text(), /^toolscript_anomalies_total\{kind="denials"\} 1$/m);
  });

  test("approve: after a large read sent to a write-like tool, the session's writes need approval", async () => {
    const gateway = await start({});
    const write = (content: string) =>
      `try { await tools.filesystem.write_file({ path: ${JSON.stringify(join(dir.path, "files-1", "out.txt"))}, content: ${content} }); return "written"; } catch (error) { return error.code; }`;
    // ~1.5 MB read, then 100 KB written: possible exfiltration, default response approve.
    const leak = await gateway.execute({
      code: `const rows = await tools.scripted.rows({ count: 16000 }); ${write('"x".repeat(100000)')}`,
      session: "x",
    });
    assert.equal(leak.error, undefined, leak.error?.message);
    assert.equal(leak.result, "written", "the write that alerted had already gone out");
    await gateway.flushAudit();
    assert.deepEqual(
      ((await gateway.store?.audit.list({ kind: "anomaly" })) ?? []).map((alert) => [
        alert.session,
        alert.tool,
        alert.outcome,
      ]),
      [["x", "exfiltration", "approve"]],
    );
    const asked: string[] = [];
    const approver = (answer: boolean) => async (request: { tool: string; reason: string }) => {
      asked.push(`${request.tool}: ${request.reason}`);
      return answer;
    };
    const noClient = await gateway.execute({ code: write('"small"'), session: "x" });
    assert.equal(noClient.result, "anomaly.no_approver");
    const declined = await gateway.execute({
      code: write('"small"'),
      session: "x",
      approver: approver(false),
    });
    assert.equal(declined.result, "anomaly.declined");
    const accepted = await gateway.execute({
      code: write('"small"'),
      session: "x",
      approver: approver(true),
    });
    assert.equal(accepted.result, "written");
    assert.equal(asked.length, 2);
    assert.match(
      asked[0] ?? "",
      /^write_file: session "x" had anomaly "exfiltration" \(sent 98 KB to filesystem\/write_file after reading 1.5 MB/,
    );
    // Read-only calls are not asked about; another session's writes are not either.
    const read = await gateway.execute({
      code: "return await tools.scripted.echo({ message: 'r' })",
      session: "x",
    });
    assert.equal(read.result, "r");
    const other = await gateway.execute({ code: write('"y"'), session: "y" });
    assert.equal(other.result, "written");
  });
});
