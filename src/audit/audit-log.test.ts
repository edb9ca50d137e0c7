import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { recordingLogger, toolCallEntry } from "../../test/helpers/audit-entries.ts";
import { REPO_ROOT, tempDir } from "../../test/helpers/servers.ts";
import { AUDIT_JOURNAL_DIR } from "../store/audit-journal-format.ts";
import type { AuditStore, SharedStore } from "../store/domains.ts";
import { openMemorySharedStore, openSqliteSharedStore } from "../store/sqlite-shared-store.ts";
import { AUDIT_RETRY_ENTRIES, AuditLog, STARTED_OUTCOME } from "./audit-log.ts";

const KILL_FIXTURE = fileURLToPath(new URL("./audit-log-kill.fixture.ts", import.meta.url));

const call = (tool: string, outcome?: string) => toolCallEntry(tool, outcome);

/** The text of the one journal in `dir`. */
function journalText(dir: string): string {
  const folder = join(dir, AUDIT_JOURNAL_DIR);
  const names = readdirSync(folder);
  assert.equal(names.length, 1, `one journal in ${folder}`);
  return readFileSync(join(folder, names[0] ?? ""), "utf8");
}

async function outcomes(store: SharedStore): Promise<string[][]> {
  return (await store.audit.list()).map((record) => [record.tool, record.outcome]).sort();
}

/** `store`'s audit, whose writes fail while `failing.now` is set. */
function flaky(store: SharedStore): { audit: AuditStore; failing: { now: boolean } } {
  const failing = { now: false };
  const audit = new Proxy(store.audit, {
    get(target, key) {
      if ((key === "write" || key === "appendNow") && failing.now) {
        return () => Promise.reject(new Error("disk I/O error"));
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { audit, failing };
}

describe("AuditLog", () => {
  it("journals a call before it is sent, then writes it as one final row", async () => {
    const dir = tempDir("audit-log");
    const store = openSqliteSharedStore({ dir: dir.path });
    try {
      const log = new AuditLog({
        store: store.audit,
        level: "off",
        logger: recordingLogger(),
        replica: "r1",
      });
      const ticket = log.begin(call("read"));
      assert.equal(ticket.written, undefined, "on disk already: nothing to wait for");
      assert.match(journalText(dir.path), /"tool":"read","argsDigest":"d","argsBytes":2,"outcome":"started"/);
      assert.deepEqual(await store.audit.list(), [], "not in the store yet");
      log.complete(ticket, call("read", "ok"), false);
      await log.flush();
      const records = await store.audit.list();
      assert.deepEqual(
        records.map((record) => [record.tool, record.outcome, record.durationMs, record.replica]),
        [["read", "ok", 4, "r1"]],
      );
      assert.equal(journalText(dir.path), "", "the journal is emptied by the flush");
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it("writes a call still running at a flush as started, and completes that row with a later flush", async () => {
    const dir = tempDir("audit-log-running");
    const store = openSqliteSharedStore({ dir: dir.path });
    try {
      const log = new AuditLog({ store: store.audit, level: "off", logger: recordingLogger() });
      const ticket = log.begin(call("read"));
      await log.flush();
      const [running] = await store.audit.list();
      assert.equal(running?.outcome, STARTED_OUTCOME);
      assert.equal(ticket.id, running?.id);
      log.complete(ticket, call("read", "ok"), false);
      await log.flush();
      assert.deepEqual(
        (await store.audit.list()).map((record) => [record.id, record.outcome]),
        [[running?.id, "ok"]],
      );
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it("flushes the calls it journals within AUDIT_FLUSH_MS, even those still running", async () => {
    const dir = tempDir("audit-log-timer");
    const store = openSqliteSharedStore({ dir: dir.path });
    try {
      const log = new AuditLog({ store: store.audit, level: "off", logger: recordingLogger() });
      log.begin(call("read"));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(await outcomes(store), [["read", STARTED_OUTCOME]]);
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it("copies no call twice when the process is killed between a flush's commit and the journal's emptying", async () => {
    const dir = tempDir("audit-log-kill");
    try {
      const child = spawnSync(process.execPath, ["--import", "tsx", KILL_FIXTURE, dir.path], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        timeout: 60_000,
      });
      assert.equal(child.signal, "SIGKILL", child.stderr);
      assert.equal(journalText(dir.path).split("\n").length, 4, "the journal kept its three lines");
      const store = openSqliteSharedStore({ dir: dir.path });
      try {
        assert.deepEqual(await outcomes(store), [
          ["list", STARTED_OUTCOME],
          ["read", "ok"],
          ["write", "ToolError"],
        ]);
      } finally {
        await store.close();
      }
      assert.deepEqual(readdirSync(join(dir.path, AUDIT_JOURNAL_DIR)), []);
    } finally {
      dir.remove();
    }
  });

  it("keeps a failed flush's records and running calls for the next flush, and logs the failure once", async () => {
    const dir = tempDir("audit-log-flaky");
    const real = openSqliteSharedStore({ dir: dir.path });
    try {
      const { audit, failing } = flaky(real);
      const logger = recordingLogger();
      const log = new AuditLog({ store: audit, level: "off", logger });
      const done = log.begin(call("read"));
      log.complete(done, call("read", "ok"), false);
      const running = log.begin(call("write"));
      failing.now = true;
      await log.flush();
      log.begin(call("list"));
      await log.flush();
      assert.equal(logger.errors.length, 1, logger.errors.join("\n"));
      assert.match(logger.errors[0] ?? "", /audit log write of 2 records failed: disk I\/O error/);
      assert.deepEqual(await real.audit.list(), []);
      failing.now = false;
      await log.flush();
      assert.deepEqual(await outcomes(real), [
        ["list", STARTED_OUTCOME],
        ["read", "ok"],
        ["write", STARTED_OUTCOME],
      ]);
      log.complete(running, call("write", "ok"), false);
      await log.flush();
      assert.deepEqual((await outcomes(real))[2], ["write", "ok"]);
      assert.equal(journalText(dir.path), "");
    } finally {
      await real.close();
      dir.remove();
    }
  });

  it("retries a failed flush by itself once the store is back", async () => {
    const store = openMemorySharedStore();
    try {
      const { audit, failing } = flaky(store);
      const log = new AuditLog({ store: audit, level: "off", logger: recordingLogger() });
      failing.now = true;
      log.record(call("list", "ok"), false);
      await log.flush();
      assert.deepEqual(await outcomes(store), []);
      failing.now = false;
      const deadline = Date.now() + 10_000;
      while ((await outcomes(store)).length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(await outcomes(store), [["list", "ok"]]);
    } finally {
      await store.close();
    }
  });

  it(`keeps at most AUDIT_RETRY_ENTRIES (${AUDIT_RETRY_ENTRIES}) records while the store fails, dropping the oldest`, async () => {
    const store = openMemorySharedStore();
    try {
      const { audit, failing } = flaky(store);
      const logger = recordingLogger();
      const log = new AuditLog({ store: audit, level: "off", logger });
      failing.now = true;
      log.record(call("first", "ok"), false);
      await log.flush();
      for (let i = 0; i < AUDIT_RETRY_ENTRIES; i++) log.record(call("later", "ok"), false);
      failing.now = false;
      await log.flush();
      const records = await store.audit.list({ limit: AUDIT_RETRY_ENTRIES * 2 });
      assert.equal(records.length, AUDIT_RETRY_ENTRIES);
      assert.ok(!records.some((record) => record.tool === "first"), "the oldest was dropped");
      assert.ok(logger.errors.some((error) => /audit records dropped: more than 10000/.test(error)));
    } finally {
      await store.close();
    }
  });

  it("commits each call itself when the journal cannot be written, and says so once", async () => {
    const dir = tempDir("audit-log-no-journal");
    // A file where the journal's folder should be.
    writeFileSync(join(dir.path, AUDIT_JOURNAL_DIR), "");
    const store = openSqliteSharedStore({ dir: dir.path, warn() {} });
    try {
      const logger = recordingLogger();
      const log = new AuditLog({ store: store.audit, level: "off", logger });
      const first = log.begin(call("read"));
      const second = log.begin(call("write"));
      assert.ok(second.written, "the call waits for its record");
      await Promise.all([first.written, second.written]);
      assert.deepEqual(await outcomes(store), [
        ["read", STARTED_OUTCOME],
        ["write", STARTED_OUTCOME],
      ]);
      assert.equal(logger.errors.length, 1, logger.errors.join("\n"));
      assert.match(logger.errors[0] ?? "", /audit journal write failed: .*committed to the store one by one/);
      log.complete(first, call("read", "ok"), false);
      await log.flush();
      assert.deepEqual((await outcomes(store))[0], ["read", "ok"]);
    } finally {
      await store.close();
      dir.remove();
    }
  });

  it("never fails the call it records when the store is gone, and logs each kind of failure once", async () => {
    const dir = tempDir("audit-log-closed");
    const store = openSqliteSharedStore({ dir: dir.path });
    const logger = recordingLogger();
    const log = new AuditLog({ store: store.audit, level: "off", logger });
    await store.close();
    try {
      for (let round = 0; round < 3; round++) {
        const ticket = log.begin(call("read"));
        await ticket.written;
        log.complete(ticket, call("read", "ok"), false);
        log.record(call("list", "ok"), false);
        await log.recordNow({ ...call("execute", "ok"), kind: "execution" }, false);
        await log.flush();
      }
      assert.equal(logger.errors.length, 3, logger.errors.join("\n"));
      assert.match(logger.errors[0] ?? "", /audit journal write failed: the audit journal .* is closed/);
      assert.match(logger.errors[1] ?? "", /audit log write failed: the store at .* is closed/);
      assert.match(logger.errors[2] ?? "", /audit log write of 3 records failed: the store at .* is closed/);
    } finally {
      await log.close();
      dir.remove();
    }
  });

  it("commits each call at once in a store in memory (nothing to journal to)", async () => {
    const store = openMemorySharedStore();
    try {
      const log = new AuditLog({ store: store.audit, level: "off", logger: recordingLogger() });
      const ticket = log.begin(call("read"));
      await ticket.written;
      assert.deepEqual(await outcomes(store), [["read", STARTED_OUTCOME]]);
      log.complete(ticket, call("read", "ok"), false);
      await log.flush();
      assert.deepEqual(await outcomes(store), [["read", "ok"]]);
    } finally {
      await store.close();
    }
  });

  it("a completion made while its started row is being committed updates that row", async () => {
    const store = openMemorySharedStore();
    try {
      const log = new AuditLog({ store: store.audit, level: "off", logger: recordingLogger() });
      const ticket = log.begin(call("read"));
      log.complete(ticket, call("read", "ok"), false);
      await log.flush();
      const records = await store.audit.list();
      assert.deepEqual(
        records.map((record) => [record.tool, record.outcome]),
        [["read", "ok"]],
      );
      assert.equal(records[0]?.id, ticket.id);
    } finally {
      await store.close();
    }
  });
});
