import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { tempDir } from "../../test/helpers/servers.ts";
import { AUDIT_JOURNAL_DIR, encodeJournalLine } from "./audit-journal-format.ts";
import { DATABASE_FILE } from "./open-database.ts";
import { openSqliteSharedStore } from "./sqlite-shared-store.ts";
import type { AuditEntry } from "./types.ts";

function started(tool: string, session = "a"): AuditEntry {
  return {
    kind: "tool_call",
    time: 1_000,
    session,
    server: "fs",
    tool,
    argsDigest: "d",
    argsBytes: 2,
    outcome: "started",
    durationMs: 0,
  };
}

/** A pid no process has any more: a child that already exited (and was reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  assert.ok(child.pid);
  return child.pid;
}

/** Writes a journal as a process `pid` left it; returns its path. */
function leftJournal(dir: string, pid: number, text: string): string {
  const folder = join(dir, AUDIT_JOURNAL_DIR);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${pid}-0123abcd.jsonl`);
  writeFileSync(path, text);
  return path;
}

function journalMarks(dir: string): unknown[] {
  const db = new Database(join(dir, DATABASE_FILE));
  try {
    return db.prepare("SELECT name, flushed_seq FROM audit_journals").all();
  } finally {
    db.close();
  }
}

describe("audit journal", () => {
  it("has each appended line in its file before append returns, and empties it once flushed", async () => {
    const dir = tempDir("journal");
    const store = openSqliteSharedStore({ dir: dir.path });
    try {
      const journal = store.audit.openJournal();
      assert.ok(journal);
      assert.ok(!existsSync(join(dir.path, AUDIT_JOURNAL_DIR)), "no file until the first call");
      journal.append(started("read"));
      journal.append(started("write"));
      const [name] = readdirSync(join(dir.path, AUDIT_JOURNAL_DIR));
      assert.match(name ?? "", new RegExp(`^${process.pid}-[0-9a-f]+\\.jsonl$`));
      const path = join(dir.path, AUDIT_JOURNAL_DIR, name ?? "");
      assert.equal(statSync(path).mode & 0o777, 0o600);
      assert.equal(
        readFileSync(path, "utf8"),
        encodeJournalLine(1, started("read")) + encodeJournalLine(2, started("write")),
      );

      await store.audit.write({ complete: [], append: [started("read"), started("write")], journal });
      journal.truncate();
      assert.equal(readFileSync(path, "utf8"), "");
      journal.append(started("list"));
      assert.equal(readFileSync(path, "utf8"), encodeJournalLine(3, started("list")), "numbering goes on");
      await store.audit.write({ complete: [], append: [started("list")], journal });
      journal.truncate();
    } finally {
      await store.close();
    }
    assert.deepEqual(
      readdirSync(join(dir.path, AUDIT_JOURNAL_DIR)),
      [],
      "a flushed journal is removed on close",
    );
    assert.deepEqual(journalMarks(dir.path), [], "and so is its mark");
    dir.remove();
  });

  it("recovers the journal of a dead process as started records, then removes it", async () => {
    const dir = tempDir("journal-dead");
    try {
      const path = leftJournal(
        dir.path,
        deadPid(),
        encodeJournalLine(1, started("read")) + encodeJournalLine(2, started("write", "b")),
      );
      const store = openSqliteSharedStore({ dir: dir.path });
      try {
        const records = await store.audit.list();
        assert.deepEqual(
          records.map((record) => [record.session, record.tool, record.outcome]),
          [
            ["b", "write", "started"],
            ["a", "read", "started"],
          ],
        );
        assert.ok(!existsSync(path), "the journal is removed");
      } finally {
        await store.close();
      }
      assert.deepEqual(journalMarks(dir.path), []);
      const again = openSqliteSharedStore({ dir: dir.path });
      assert.equal((await again.audit.list()).length, 2, "nothing is copied twice");
      await again.close();
    } finally {
      dir.remove();
    }
  });

  it("copies no line twice when the journal outlived the flush that wrote it", async () => {
    const dir = tempDir("journal-outlived");
    try {
      const store = openSqliteSharedStore({ dir: dir.path });
      const journal = store.audit.openJournal();
      assert.ok(journal);
      journal.append(started("read"));
      journal.append(started("write"));
      await store.audit.write({
        complete: [],
        append: [{ ...started("read"), outcome: "ok", durationMs: 3 }, started("write")],
        journal,
      });
      // The process "dies" here, before truncate: the file keeps both lines, and a third one
      // appended after the flush.
      journal.append(started("list"));
      await store.close();
      const [name] = readdirSync(join(dir.path, AUDIT_JOURNAL_DIR));
      assert.equal(readFileSync(join(dir.path, AUDIT_JOURNAL_DIR, name ?? ""), "utf8").split("\n").length, 4);

      const reopened = openSqliteSharedStore({ dir: dir.path });
      try {
        assert.deepEqual(
          (await reopened.audit.list()).map((record) => [record.tool, record.outcome]).sort(),
          [
            ["list", "started"],
            ["read", "ok"],
            ["write", "started"],
          ],
        );
      } finally {
        await reopened.close();
      }
      assert.deepEqual(readdirSync(join(dir.path, AUDIT_JOURNAL_DIR)), []);
    } finally {
      dir.remove();
    }
  });

  it("leaves alone the journal of a live process: another process's, or one open in this process", async () => {
    const dir = tempDir("journal-live");
    try {
      // The test runner that started this process outlives it.
      const other = leftJournal(dir.path, process.ppid, encodeJournalLine(1, started("read")));
      const first = openSqliteSharedStore({ dir: dir.path });
      const journal = first.audit.openJournal();
      journal?.append(started("write"));
      const second = openSqliteSharedStore({ dir: dir.path });
      try {
        assert.deepEqual(await second.audit.list(), []);
        assert.ok(existsSync(other));
        assert.equal(readdirSync(join(dir.path, AUDIT_JOURNAL_DIR)).length, 2);
      } finally {
        await second.close();
      }
      // Closed with a line never flushed: left on disk, and recovered by the next store opened here.
      await first.close();
      const third = openSqliteSharedStore({ dir: dir.path });
      try {
        assert.deepEqual(
          (await third.audit.list()).map((record) => record.tool),
          ["write"],
        );
        assert.deepEqual(readdirSync(join(dir.path, AUDIT_JOURNAL_DIR)), [other.split("/").at(-1)]);
      } finally {
        await third.close();
      }
    } finally {
      dir.remove();
    }
  });

  it("skips a torn last line (a write cut short by the crash) and a damaged one, with a warning each", async () => {
    const dir = tempDir("journal-torn");
    try {
      const whole = encodeJournalLine(1, started("read")) + encodeJournalLine(3, started("write"));
      const torn = encodeJournalLine(4, started("list")).slice(0, 30);
      leftJournal(dir.path, deadPid(), `${whole}not json\n${torn}`);
      const warnings: string[] = [];
      const store = openSqliteSharedStore({ dir: dir.path, warn: (message) => warnings.push(message) });
      try {
        assert.deepEqual((await store.audit.list()).map((record) => record.tool).sort(), ["read", "write"]);
      } finally {
        await store.close();
      }
      assert.equal(warnings.length, 2, warnings.join("\n"));
      assert.match(warnings[0] ?? "", /audit journal .*-0123abcd\.jsonl: line 4 skipped: it has no end/);
      assert.match(warnings[1] ?? "", /line 3 skipped: it is not JSON/);
    } finally {
      dir.remove();
    }
  });
});
