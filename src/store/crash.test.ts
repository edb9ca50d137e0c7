import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { REPO_ROOT, tempDir } from "../../test/helpers/servers.ts";
import { DATABASE_FILE, type Durability } from "./open-database.ts";
import { openSqliteSharedStore } from "./sqlite-shared-store.ts";

const FIXTURE = fileURLToPath(new URL("./crash-writer.fixture.ts", import.meta.url));

/** Runs the writer until it has acknowledged `atLeast` records, then SIGKILLs it; returns every acknowledged id. */
function writeThenKill(dir: string, durability: Durability, atLeast: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, dir, durability], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let killed = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (!killed && out.split("\n").length > atLeast) {
        killed = true;
        child.kill("SIGKILL");
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("close", (_code, signal) => {
      if (signal !== "SIGKILL") return reject(new Error(`writer ended without being killed: ${err}`));
      // A partial last line was not acknowledged yet (its newline never arrived).
      const lines = out.split("\n").slice(0, -1);
      resolve(lines.map(Number));
    });
  });
}

function integrity(dir: string): string {
  const db = new Database(join(dir, DATABASE_FILE));
  try {
    return String(db.pragma("integrity_check", { simple: true }));
  } finally {
    db.close();
  }
}

describe("crash safety (kill -9 of a real writer process)", () => {
  for (const durability of ["full", "normal"] as const) {
    it(`keeps every acknowledged record (durability ${durability}), three kills in a row`, async () => {
      const dir = tempDir("crash");
      try {
        const acknowledged: number[] = [];
        for (let round = 0; round < 3; round++) {
          // Each round restarts ids at 0 and overwrites the same paths with the same content.
          const ids = await writeThenKill(dir.path, durability, 150 + round * 50);
          assert.ok(ids.length >= 150, `round ${round}: only ${ids.length} acknowledged`);
          assert.deepEqual(
            ids,
            ids.map((_, index) => index),
            "acknowledgements are in order",
          );
          acknowledged.splice(0, acknowledged.length, ...ids);
          assert.equal(integrity(dir.path), "ok");

          const store = openSqliteSharedStore({ dir: dir.path, durability });
          try {
            for (const id of acknowledged) {
              const file = await store.sessions.readFile(`s${id % 3}`, `files/${id}.bin`);
              assert.ok(file, `file ${id} lost`);
              assert.equal(file.bytes[file.bytes.length - 1], id % 251, `file ${id} content`);
            }
            const audited = new Set(
              (await store.audit.list({ limit: 1_000_000 })).map((entry) => entry.argsDigest),
            );
            for (const id of acknowledged) assert.ok(audited.has(String(id)), `audit ${id} lost`);
            const last = acknowledged.at(-1) ?? 0;
            // The last acknowledged save is id - id % 10; a later, unacknowledged one may have landed too.
            const saved = last - (last % 10);
            const counter = await store.skills.get("counter");
            assert.ok(
              [`export const n = ${saved};`, `export const n = ${saved + 10};`].includes(counter?.code ?? ""),
              `skill version of ${saved} lost: ${counter?.code}`,
            );
            // Counters stayed in step with the files through the crash.
            for (const session of await store.sessions.list()) {
              const files = await store.sessions.listFiles(session.id);
              assert.equal(session.fileCount, files.length);
              assert.equal(
                session.totalBytes,
                files.reduce((sum, file) => sum + file.size, 0),
              );
            }
          } finally {
            await store.close();
          }
        }
      } finally {
        dir.remove();
      }
    });
  }
});
