import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { AuditLog, STARTED_OUTCOME } from "../src/audit/audit-log.ts";
import { AUDIT_JOURNAL_DIR, encodeJournalLine } from "../src/store/audit-journal-format.ts";
import { openSqliteSharedStore } from "../src/store/sqlite-shared-store.ts";
import type { AuditEntry } from "../src/store/types.ts";
import { cliArgs, tempDir } from "./helpers/servers.ts";

const dir = tempDir("audit-journal");
after(() => dir.remove());

function call(session: string, tool: string, outcome = STARTED_OUTCOME): AuditEntry {
  return {
    kind: "tool_call",
    time: Date.now(),
    session,
    server: "fs",
    tool,
    argsDigest: "d",
    argsBytes: 2,
    outcome,
    durationMs: 0,
  };
}

function auditCli(config: string): Array<{ session: string; tool: string; outcome: string }> {
  const cli = spawnSync(process.execPath, cliArgs("audit", "--config", config, "--json"), {
    encoding: "utf8",
    timeout: 30_000,
  });
  assert.equal(cli.status, 0, cli.stderr);
  return cli.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { session: string; tool: string; outcome: string });
}

test("`toolscript audit` shows journaled calls once flushed, and those a dead process left in its journal", async () => {
  const storage = join(dir.path, "store");
  const config = join(dir.path, "toolscript.config.json");
  writeFileSync(config, JSON.stringify({ mcpServers: {}, toolscript: { storage: { dir: storage } } }));

  const store = openSqliteSharedStore({ dir: storage });
  try {
    const log = new AuditLog({
      store: store.audit,
      level: "off",
      logger: { info() {}, warn() {}, error() {} },
    });
    const done = log.begin(call("alice", "read"));
    log.complete(done, call("alice", "read", "ok"), false);
    log.begin(call("alice", "write"));
    await log.flush();
  } finally {
    await store.close();
  }
  // What a gateway killed mid-call leaves: a journal whose process is gone.
  const gone = spawnSync(process.execPath, ["-e", ""]).pid;
  mkdirSync(join(storage, AUDIT_JOURNAL_DIR), { recursive: true });
  writeFileSync(
    join(storage, AUDIT_JOURNAL_DIR, `${gone}-0a1b2c.jsonl`),
    encodeJournalLine(1, call("bob", "list")),
  );

  const records = auditCli(config).map((record) => [record.session, record.tool, record.outcome]);
  assert.deepEqual(records.sort(), [
    ["alice", "read", "ok"],
    ["alice", "write", STARTED_OUTCOME],
    ["bob", "list", STARTED_OUTCOME],
  ]);
  assert.equal(auditCli(config).length, 3, "recovered once");
});
