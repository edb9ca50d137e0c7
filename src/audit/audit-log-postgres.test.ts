import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { recordingLogger, toolCallEntry } from "../../test/helpers/audit-entries.ts";
import { startLoopbackProxy } from "../../test/helpers/loopback-proxy.ts";
import { type PostgresCluster, startPostgres } from "../../test/helpers/postgres-cluster.ts";
import { cliArgs, REPO_ROOT, tempDir } from "../../test/helpers/servers.ts";
import type { SharedStore } from "../store/domains.ts";
import { openPostgresStore } from "../store/postgres/postgres-store.ts";
import type { AuditEntry } from "../store/types.ts";
import { AuditLog, STARTED_OUTCOME } from "./audit-log.ts";

const KILL_FIXTURE = fileURLToPath(new URL("./audit-log-postgres-kill.fixture.ts", import.meta.url));

let cluster: PostgresCluster;
let databases = 0;
before(async () => {
  cluster = await startPostgres();
});
after(() => cluster?.stop());

const call = (tool: string, outcome?: string) => toolCallEntry(tool, outcome, Date.now());

async function rows(store: SharedStore): Promise<Array<[string, string, string | null | undefined]>> {
  return (await store.audit.list({ limit: 1_000 }))
    .map((record): [string, string, string | null | undefined] => [
      record.tool,
      record.outcome,
      record.replica,
    ])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

/** Polls `check` until it holds, for at most `timeoutMs`. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function auditCli(url: string, config: string, ...args: string[]): { stdout: string; stderr: string } {
  const cli = spawnSync(process.execPath, cliArgs("audit", "--config", config, ...args), {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, TOOLSCRIPT_STORAGE_URL: url },
  });
  assert.equal(cli.status, 0, cli.stderr);
  return { stdout: cli.stdout, stderr: cli.stderr };
}

describe("AuditLog on PostgreSQL (no journal)", () => {
  it("commits a started call before it goes out, visible to another replica; completes it with a flush", async () => {
    const url = await cluster.createDatabase(`audit_log_${++databases}`);
    const [mine, other] = [await openPostgresStore({ url }), await openPostgresStore({ url })];
    try {
      const log = new AuditLog({ store: mine.audit, level: "off", logger: recordingLogger(), replica: "r1" });
      const ticket = log.begin(call("read"));
      assert.ok(ticket.written, "the call has to wait for its record");
      await ticket.written;
      assert.deepEqual(await rows(other), [["read", STARTED_OUTCOME, "r1"]]);
      log.complete(ticket, call("read", "ok"), false);
      log.record(call("list", "ok"), false);
      await log.recordNow({ ...call("execute", "ok"), kind: "execution" }, false);
      assert.deepEqual(
        (await rows(other)).map(([tool]) => tool),
        ["execute", "read"],
        "an execution's record is committed when recordNow resolves",
      );
      await log.flush();
      assert.deepEqual(await rows(other), [
        ["execute", "ok", "r1"],
        ["list", "ok", "r1"],
        ["read", "ok", "r1"],
      ]);
      assert.equal(
        (await other.audit.list({ kind: "tool_call" })).find((r) => r.tool === "read")?.id,
        ticket.id,
      );
    } finally {
      await Promise.all([mine.close(), other.close()]);
    }
  });

  it("a replica SIGKILLed right after a call was let go leaves its started record; `toolscript audit` shows both replicas'", async () => {
    const url = await cluster.createDatabase(`audit_log_${++databases}`);
    const dir = tempDir("audit-log-postgres");
    const survivor = await openPostgresStore({ url });
    try {
      const child = spawn(process.execPath, ["--import", "tsx", KILL_FIXTURE, url, "replica-b"], {
        cwd: REPO_ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on("exit", (_code, signal) => resolve(signal)),
      );
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no acknowledgement in 60 s: ${stderr}`)), 60_000);
        child.stdout.on("data", (chunk: Buffer) => {
          if (!chunk.toString().includes("acknowledged")) return;
          clearTimeout(timer);
          child.kill("SIGKILL");
          resolve();
        });
        child.on("exit", () => reject(new Error(`the fixture exited first: ${stderr}`)));
      });
      assert.equal(await exited, "SIGKILL");

      const log = new AuditLog({
        store: survivor.audit,
        level: "off",
        logger: recordingLogger(),
        replica: "replica-a",
      });
      const ticket = log.begin(call("read"));
      await ticket.written;
      log.complete(ticket, call("read", "ok"), false);
      await log.flush();
      const records = await survivor.audit.list({ session: "killed" });
      assert.deepEqual(
        records.map((r) => [r.tool, r.outcome, r.replica]),
        [["write", STARTED_OUTCOME, "replica-b"]],
      );

      const config = join(dir.path, "toolscript.config.json");
      writeFileSync(config, JSON.stringify({ mcpServers: {} }));
      const listed = auditCli(url, config, "--json")
        .stdout.trim()
        .split("\n")
        .map((line) => JSON.parse(line) as AuditEntry)
        .map((r) => [r.replica, r.tool, r.outcome])
        .sort();
      assert.deepEqual(listed, [
        ["replica-a", "read", "ok"],
        ["replica-b", "write", STARTED_OUTCOME],
      ]);
      const onlyB = auditCli(url, config, "--replica", "replica-b");
      assert.match(onlyB.stdout, /fs\/write {2}started {2}0 ms {2}replica=replica-b\n$/);
      assert.equal(onlyB.stdout.trim().split("\n").length, 1);
      assert.match(onlyB.stderr, /1 records from postgres(ql)?:\/\//);
    } finally {
      await survivor.close();
      dir.remove();
    }
  });

  it("never fails a call while the store is unreachable; its records arrive once the store is back", async () => {
    const proxy = await startLoopbackProxy(cluster.port);
    const url = new URL(await cluster.createDatabase(`audit_log_${++databases}`));
    const direct = await openPostgresStore({ url: url.toString() });
    url.port = String(proxy.port);
    const store = await openPostgresStore({ url: url.toString(), connectionTimeoutMs: 500 });
    const logger = recordingLogger();
    const log = new AuditLog({ store: store.audit, level: "off", logger, replica: "r1" });
    try {
      proxy.cut();
      const ticket = log.begin(call("read"));
      await ticket.written;
      log.complete(ticket, call("read", "ok"), false);
      await log.recordNow({ ...call("execute", "ok"), kind: "execution" }, false);
      await log.flush();
      assert.ok(
        logger.errors.some((error) => /audit log write .*failed/.test(error)),
        logger.errors.join("\n"),
      );
      proxy.restore();
      // Retried by itself (AUDIT_RETRY_MS), with no further record to trigger it.
      await eventually(async () => (await direct.audit.list()).length === 2);
      assert.deepEqual(await rows(direct), [
        ["execute", "ok", "r1"],
        ["read", "ok", "r1"],
      ]);
    } finally {
      await log.close();
      await Promise.all([store.close(), direct.close()]);
      await proxy.close();
    }
  });
});
