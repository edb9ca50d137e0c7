import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AuditRecord } from "../src/store/types.ts";
import { execute } from "./helpers/mcp-client.ts";
import { type PostgresCluster, startPostgres } from "./helpers/postgres-cluster.ts";
import { cliArgs, REPO_ROOT, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const BLOCKING_JS = join(REPO_ROOT, "test/servers/blocking-server.mjs");
const TOKEN = "replicas-kill-token";
/** Polls for the marker at most this many times (25 ms apart). */
const MAX_POLLS = 800;

const dir = tempDir("replicas-kill");
let cluster: PostgresCluster;
let url: string;
const children: ChildProcess[] = [];
before(async () => {
  cluster = await startPostgres();
  url = await cluster.createDatabase("replicas");
});
after(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await cluster?.stop();
  dir.remove();
});

/** Starts `toolscript serve --http` as replica `name` on the PostgreSQL store; its MCP URL once its servers are ready. */
async function startReplica(name: string, config: string): Promise<{ child: ChildProcess; mcpUrl: string }> {
  const child = spawn(process.execPath, cliArgs("serve", "--config", config, "--http", "127.0.0.1:0"), {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, TOOLSCRIPT_STORAGE_URL: url, TOOLSCRIPT_REPLICA: name },
  });
  children.push(child);
  let stderr = "";
  const mcpUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${stderr}`)), 60_000);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
      const origin = /serving MCP over Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(stderr)?.[1];
      if (origin && /scripted: ready/.test(stderr) && /blocking: ready/.test(stderr)) {
        clearTimeout(timer);
        resolve(origin);
      }
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}: ${stderr}`)));
  });
  return { child, mcpUrl };
}

async function connect(mcpUrl: string): Promise<Client> {
  const client = new Client({ name: "replicas-kill", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return client;
}

test("a replica SIGKILLed mid-call: the survivor still serves, `toolscript audit` shows both replicas' records", async () => {
  const marker = join(dir.path, "reached-b");
  const config = join(dir.path, "toolscript.config.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        scripted: { command: process.execPath, args: [SCRIPTED_JS] },
        blocking: { command: process.execPath, args: [BLOCKING_JS, marker] },
      },
      toolscript: {
        server: { http: { token: TOKEN } },
        sandbox: { timeoutMs: 60_000 },
        upstream: { callTimeoutMs: 60_000 },
      },
    }),
  );
  const a = await startReplica("replica-a", config);
  const b = await startReplica("replica-b", config);
  const [clientA, clientB] = [await connect(a.mcpUrl), await connect(b.mcpUrl)];
  try {
    const echo = 'return await tools.scripted.echo({ message: "hi" })';
    assert.equal((await execute(clientA, echo, { session: "on-a" })).structured.result, "hi");
    assert.equal((await execute(clientB, echo, { session: "on-b" })).structured.result, "hi");

    const blocked = execute(clientB, "await tools.blocking.block({ n: 1 })", { session: "killed" }).catch(
      () => undefined,
    );
    for (let poll = 0; poll < MAX_POLLS && !existsSync(marker); poll++) await sleep(25);
    assert.ok(existsSync(marker), "the call reached the upstream");
    const exited = new Promise((resolve) => b.child.once("exit", resolve));
    b.child.kill("SIGKILL");
    await exited;
    await blocked;

    assert.equal(
      (await execute(clientA, echo, { session: "after" })).structured.result,
      "hi",
      "the survivor still serves",
    );

    const cli = spawnSync(
      process.execPath,
      cliArgs("audit", "--config", config, "--json", "--limit", "100"),
      {
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, TOOLSCRIPT_STORAGE_URL: url },
      },
    );
    assert.equal(cli.status, 0, cli.stderr);
    const records = cli.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditRecord);
    const calls = (replica: string) =>
      records
        .filter((record) => record.replica === replica && record.kind === "tool_call")
        .map((record) => [record.session, record.tool, record.outcome])
        .sort();
    assert.deepEqual(calls("replica-a"), [
      ["after", "echo", "ok"],
      ["on-a", "echo", "ok"],
    ]);
    assert.deepEqual(calls("replica-b"), [
      ["killed", "block", "started"],
      ["on-b", "echo", "ok"],
    ]);
    const executions = records.filter((record) => record.kind === "execution");
    assert.deepEqual(executions.map((record) => [record.replica, record.session]).sort(), [
      ["replica-a", "after"],
      ["replica-a", "on-a"],
      ["replica-b", "on-b"],
    ]);
  } finally {
    await Promise.all([clientA.close(), clientB.close().catch(() => undefined)]);
    const exitedA = new Promise((resolve) => a.child.once("exit", resolve));
    a.child.kill("SIGTERM");
    await exitedA;
  }
});
