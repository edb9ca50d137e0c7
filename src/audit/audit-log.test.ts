import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { REPO_ROOT, tempDir } from "../../test/helpers/servers.ts";
import type { Logger } from "../gateway/logger.ts";
import { AUDIT_JOURNAL_DIR } from "../store/audit-journal-format.ts";
import { openMemoryStore, openStore } from "../store/sqlite-store.ts";
import type { AuditEntry, Store } from "../store/types.ts";
import { AuditLog, STARTED_OUTCOME } from "./audit-log.ts";

const KILL_FIXTURE = fileURLToPath(new URL("./audit-log-kill.fixture.ts", import.meta.url));

function call(tool: string, outcome = STARTED_OUTCOME): AuditEntry {
  return {
    kind: "tool_call",
    time: 1_000,
    session: "a",
    server: "fs",
    tool,
    argsDigest: "d",
    argsBytes: 2,
    outcome,
    durationMs: outcome === STARTED_OUTCOME ? 0 : 4,
  };
}

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, info() {}, warn() {}, error: (message) => errors.push(message) };
}

/** The text of the one journal in `dir`. */
function journalText(dir: string): string {
  const folder = join(dir, AUDIT_JOURNAL_DIR);
  const names = readdirSync(folder);
  assert.equal(names.length, 1, `one journal in ${folder}`);
  return readFileSync(join(folder, names[0] ?? ""), "utf8");
}

function outcomes(store: Store): string[][] {
  return store
    .listAudit()
    .map((record) => [record.tool, record.outcome])
    .sort();
}

/** `store`, whose `batch` fails while `failing.now` is set. */
function flaky(store: Store): { store: Store; failing: { now: boolean } } {
  const failing = { now: false };
  const proxy = new Proxy(store, {
    get(target, key) {
      if (key === "batch" && failing.now) {
        return () => {
          throw new Error("disk I/O error");
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store: proxy, failing };
}

describe("AuditLog", () => {
  it("journals a call before it is sent, then writes it as one final row", () => {
    const dir = tempDir("audit-log");
    const store = openStore({ dir: dir.path });
    try {
      const log = new AuditLog({ store, level: "off", logger: recordingLogger() });
      const ticket = log.begin(call("read"));
      assert.match(journalText(dir.path), /"tool":"read","argsDigest":"d","argsBytes":2,"outcome":"started"/);
      assert.deepEqual(store.listAudit(), [], "not in the store yet");
      log.complete(ticket, call("read", "ok"), false);
      log.flush();
      const records = store.listAudit();
      assert.deepEqual(
        records.map((record) => [record.tool, record.outcome, record.durationMs]),
        [["read", "ok", 4]],
      );
      assert.equal(journalText(dir.path), "", "the journal is emptied by the flush");
    } finally {
      store.close();
      dir.remove();
    }
  });

  it("writes a call still running at a flush as started, and completes that row with a later flush", () => {
    const dir = tempDir("audit-log-running");
    const store = openStore({ dir: dir.path });
    try {
      const log = new AuditLog({ store, level: "off", logger: recordingLogger() });
      const ticket = log.begin(call("read"));
      log.flush();
      const [running] = store.listAudit();
      assert.equal(running?.outcome, STARTED_OUTCOME);
      assert.equal(ticket.id, running?.id);
      log.complete(ticket, call("read", "ok"), false);
      log.flush();
      assert.deepEqual(
        store.listAudit().map((record) => [record.id, record.outcome]),
        [[running?.id, "ok"]],
      );
    } finally {
      store.close();
      dir.remove();
    }
  });

  it("flushes the calls it journals within AUDIT_FLUSH_MS, even those still running", async () => {
    const dir = tempDir("audit-log-timer");
    const store = openStore({ dir: dir.path });
    try {
      const log = new AuditLog({ store, level: "off", logger: recordingLogger() });
      log.begin(call("read"));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(outcomes(store), [["read", STARTED_OUTCOME]]);
    } finally {
      store.close();
      dir.remove();
    }
  });

  it("copies no call twice when the process is killed between a flush's commit and the journal's emptying", () => {
    const dir = tempDir("audit-log-kill");
    try {
      const child = spawnSync(process.execPath, ["--import", "tsx", KILL_FIXTURE, dir.path], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        timeout: 60_000,
      });
      assert.equal(child.signal, "SIGKILL", child.stderr);
      assert.equal(journalText(dir.path).split("\n").length, 4, "the journal kept its three lines");
      const store = openStore({ dir: dir.path });
      try {
        assert.deepEqual(outcomes(store), [
          ["list", STARTED_OUTCOME],
          ["read", "ok"],
          ["write", "ToolError"],
        ]);
      } finally {
        store.close();
      }
      assert.deepEqual(readdirSync(join(dir.path, AUDIT_JOURNAL_DIR)), []);
    } finally {
      dir.remove();
    }
  });

  it("keeps a failed flush's journaled calls as started for the next flush, and logs the failure once", () => {
    const dir = tempDir("audit-log-flaky");
    const real = openStore({ dir: dir.path });
    try {
      const { store, failing } = flaky(real);
      const logger = recordingLogger();
      const log = new AuditLog({ store, level: "off", logger });
      const done = log.begin(call("read"));
      log.complete(done, call("read", "ok"), false);
      const running = log.begin(call("write"));
      failing.now = true;
      log.flush();
      log.begin(call("list"));
      log.flush();
      assert.equal(logger.errors.length, 1, logger.errors.join("\n"));
      assert.match(logger.errors[0] ?? "", /audit log write of 1 records failed: disk I\/O error/);
      assert.deepEqual(real.listAudit(), []);
      failing.now = false;
      log.flush();
      // The completion was lost with the failed batch; the call itself was not.
      assert.deepEqual(outcomes(real), [
        ["list", STARTED_OUTCOME],
        ["read", STARTED_OUTCOME],
        ["write", STARTED_OUTCOME],
      ]);
      log.complete(running, call("write", "ok"), false);
      log.flush();
      assert.deepEqual(outcomes(real)[2], ["write", "ok"]);
      assert.equal(journalText(dir.path), "");
    } finally {
      real.close();
      dir.remove();
    }
  });

  it("commits each call itself when the journal cannot be written, and says so once", () => {
    const dir = tempDir("audit-log-no-journal");
    // A file where the journal's folder should be.
    writeFileSync(join(dir.path, AUDIT_JOURNAL_DIR), "");
    const store = openStore({ dir: dir.path, warn() {} });
    try {
      const logger = recordingLogger();
      const log = new AuditLog({ store, level: "off", logger });
      const first = log.begin(call("read"));
      log.begin(call("write"));
      assert.deepEqual(outcomes(store), [
        ["read", STARTED_OUTCOME],
        ["write", STARTED_OUTCOME],
      ]);
      assert.equal(logger.errors.length, 1, logger.errors.join("\n"));
      assert.match(logger.errors[0] ?? "", /audit journal write failed: .*committed to the store one by one/);
      log.complete(first, call("read", "ok"), false);
      log.flush();
      assert.deepEqual(outcomes(store)[0], ["read", "ok"]);
    } finally {
      store.close();
      dir.remove();
    }
  });

  it("never fails the call it records when the store is gone, and logs each kind of failure once", () => {
    const dir = tempDir("audit-log-closed");
    const store = openStore({ dir: dir.path });
    const logger = recordingLogger();
    const log = new AuditLog({ store, level: "off", logger });
    store.close();
    try {
      for (let round = 0; round < 3; round++) {
        const ticket = log.begin(call("read"));
        log.complete(ticket, call("read", "ok"), false);
        log.record(call("list", "ok"), false);
        log.recordNow({ ...call("execute", "ok"), kind: "execution" }, false);
        log.flush();
      }
      assert.equal(logger.errors.length, 3, logger.errors.join("\n"));
      assert.match(logger.errors[0] ?? "", /audit journal write failed: the audit journal .* is closed/);
      assert.match(logger.errors[1] ?? "", /audit log write failed: the store at .* is closed/);
      assert.match(logger.errors[2] ?? "", /audit log write of 2 records failed: the store at .* is closed/);
    } finally {
      dir.remove();
    }
  });

  it("commits each call at once in a store in memory (nothing to journal to)", () => {
    const store = openMemoryStore();
    try {
      const log = new AuditLog({ store, level: "off", logger: recordingLogger() });
      const ticket = log.begin(call("read"));
      assert.deepEqual(outcomes(store), [["read", STARTED_OUTCOME]]);
      log.complete(ticket, call("read", "ok"), false);
      log.flush();
      assert.deepEqual(outcomes(store), [["read", "ok"]]);
    } finally {
      store.close();
    }
  });
});
