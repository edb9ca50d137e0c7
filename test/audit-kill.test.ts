import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openSqliteSharedStore } from "../src/store/sqlite-shared-store.ts";
import { cliArgs, REPO_ROOT, tempDir } from "./helpers/servers.ts";

const BLOCKING_JS = join(REPO_ROOT, "test/servers/blocking-server.mjs");
const ROUNDS = 2;
/** Polls for the marker at most this many times (25 ms apart): the call reaches the upstream in well under a second. */
const MAX_POLLS = 400;

const dir = tempDir("audit-kill");
after(() => dir.remove());

/** Starts `toolscript serve`, sends a call that blocks at the upstream, and SIGKILLs the gateway once it is there. */
async function callThenKill(config: string, marker: string, round: number): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs("serve", "--config", config),
    stderr: "pipe",
  });
  const client = new Client({ name: "audit-kill", version: "1.0.0" });
  await client.connect(transport);
  const pid = transport.pid;
  assert.ok(pid, "the gateway runs as a child process");
  const call = client
    .callTool({
      name: "execute_code",
      arguments: { code: `await tools.blocking.block({ round: ${round} })`, session: `round-${round}` },
    })
    .catch(() => undefined);
  for (let poll = 0; poll < MAX_POLLS && !existsSync(marker); poll++) await sleep(25);
  assert.ok(existsSync(marker), "the call reached the upstream");
  const closed = new Promise<void>((resolve) => {
    client.onclose = () => resolve();
  });
  process.kill(pid, "SIGKILL");
  await closed;
  await call;
  await client.close().catch(() => undefined);
}

test("a tool call's audit record is on disk before the call is sent: kept through SIGKILL of the gateway", async () => {
  const store = join(dir.path, "store");
  for (let round = 0; round < ROUNDS; round++) {
    const marker = join(dir.path, `reached-${round}`);
    const config = join(dir.path, `toolscript-${round}.config.json`);
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { blocking: { command: process.execPath, args: [BLOCKING_JS, marker] } },
        toolscript: {
          storage: { dir: store },
          sandbox: { timeoutMs: 60_000 },
          upstream: { callTimeoutMs: 60_000 },
        },
      }),
    );
    await callThenKill(config, marker, round);
    const opened = openSqliteSharedStore({ dir: store });
    try {
      const calls = (await opened.audit.list({ session: `round-${round}`, limit: 100 })).filter(
        (record) => record.kind === "tool_call",
      );
      assert.equal(calls.length, 1, `round ${round}: the killed call's record is there`);
      assert.equal(calls[0]?.server, "blocking");
      assert.equal(calls[0]?.tool, "block");
      assert.equal(calls[0]?.outcome, "started", "it never completed");
      assert.equal(calls[0]?.argsBytes, JSON.stringify({ round }).length);
    } finally {
      await opened.close();
    }
  }
});
