// Test fixture for crash.test.ts, run as a child process: writes records in a
// loop and prints each id to stdout only after the store acknowledged it, so the
// parent can `kill -9` mid-write and check that every printed id survived.
// Usage: node --import tsx crash-writer.fixture.ts <dir> <durability>
import { writeSync } from "node:fs";
import type { Durability } from "./open-database.ts";
import { openSqliteSharedStore } from "./sqlite-shared-store.ts";

const [dir, durability = "full"] = process.argv.slice(2);
if (!dir) throw new Error("usage: crash-writer.fixture.ts <dir> [full|normal]");

const store = openSqliteSharedStore({ dir, durability: durability as Durability });
const limits = { maxTotalBytes: Number.MAX_SAFE_INTEGER, maxFiles: Number.MAX_SAFE_INTEGER };
// Mixed sizes: small rows, and blobs that span many pages so a kill can land inside one write.
const sizes = [16, 700, 5_000, 70_000];

for (let id = 0; ; id++) {
  const size = sizes[id % sizes.length] ?? 16;
  const bytes = new Uint8Array(size).fill(id % 251);
  const session = `s${id % 3}`;
  await store.sessions.writeFile(session, `files/${id}.bin`, bytes, limits);
  const record = {
    time: id,
    session,
    server: "crash",
    tool: "write",
    argsDigest: String(id),
    argsBytes: size,
    outcome: "ok",
    durationMs: 0,
  };
  // Every other record as the gateway writes one before a tool call: its own commit, no fsync under `full`.
  if (id % 2 === 0) await store.audit.append([record]);
  else await store.audit.appendNow(record);
  if (id % 10 === 0) {
    await store.skills.save({
      name: "counter",
      code: `export const n = ${id};`,
      description: "d",
      declaration: "",
    });
  }
  // Synchronous write: the line leaves the process before the next record starts.
  writeLine(`${id}\n`);
}

/** Writes all of `text` to stdout, waiting while the pipe is full (a non-blocking pipe answers EAGAIN under load). */
function writeLine(text: string): void {
  const buffer = Buffer.from(text);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let offset = 0; offset < buffer.length; ) {
    try {
      offset += writeSync(1, buffer, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
