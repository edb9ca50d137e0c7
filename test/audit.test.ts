import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { loadConfig } from "../src/config/load.ts";
import { Gateway } from "../src/gateway/gateway.ts";
import { cliArgs, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const dir = tempDir("audit");
after(() => dir.remove());

test("executions and tool calls are audited durably, and `toolscript audit` reads them", async () => {
  const file = join(dir.path, "toolscript.config.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: {
        policy: { deny: ["scripted/crash"] },
        audit: { stderr: "off", alertAfter: 2 },
        sandbox: { timeoutMs: 500 },
      },
    }),
  );
  const warnings: string[] = [];
  const gateway = new Gateway({
    config: await loadConfig({ path: file, cwd: dir.path, env: {} }),
    logger: { info() {}, warn: (message) => warnings.push(message), error() {} },
  });
  await gateway.start();
  try {
    const ok = await gateway.execute({
      code: 'return await tools.scripted.echo({ message: "hi" })',
      session: "alice",
    });
    assert.equal(ok.result, "hi");
    const denied = await gateway.execute({ code: "await tools.scripted.crash({})", session: "mallory" });
    assert.equal(denied.error?.kind, "policy");
    const spin = await gateway.execute({ code: "while (true) {}", session: "mallory" });
    assert.equal(spin.error?.kind, "timeout");

    await gateway.flushAudit();
    const records = (await gateway.store?.audit.list()) ?? [];
    const calls = records.filter((record) => record.kind === "tool_call");
    const executions = records.filter((record) => record.kind === "execution");
    assert.equal(executions.length, 3);
    assert.deepEqual(
      calls.map((record) => [record.session, record.tool, record.outcome, record.policy]),
      [
        ["mallory", "crash", "policy.denied", "deny"],
        ["alice", "echo", "ok", "allow"],
      ],
    );
    const echo = calls[1];
    assert.equal(echo?.argsBytes, '{"message":"hi"}'.length);
    assert.match(echo?.argsDigest ?? "", /^[0-9a-f]{64}$/);
    assert.equal(echo?.bytesOut, 4);
    assert.deepEqual(gateway.violations("mallory"), {
      policy: 1,
      limit: 0,
      timeout: 1,
      memory: 0,
      escape: 0,
    });
    assert.equal(warnings.filter((warning) => warning.includes('session "mallory" reached 2')).length, 1);
  } finally {
    await gateway.close();
  }

  const cli = spawnSync(process.execPath, cliArgs("audit", "--config", file, "--denied", "--json"), {
    encoding: "utf8",
    timeout: 30_000,
  });
  assert.equal(cli.status, 0, cli.stderr);
  const lines = cli.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { outcome: string; session: string });
  assert.deepEqual(
    lines.map((line) => [line.session, line.outcome]),
    [["mallory", "policy.denied"]],
  );
  const alice = spawnSync(
    process.execPath,
    cliArgs("audit", "--config", file, "--session", "alice", "--since", "1h"),
    {
      encoding: "utf8",
      timeout: 30_000,
    },
  );
  assert.match(alice.stdout, /alice {2}scripted\/echo {2}ok/);
  assert.match(alice.stdout, /alice {2}execution \(isolate\) {2}ok/);
});
