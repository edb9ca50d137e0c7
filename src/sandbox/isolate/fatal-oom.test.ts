import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ISOLATE_LOST_CODE } from "./run-outcome.ts";

const FIXTURE = fileURLToPath(new URL("./fatal-oom.fixture.ts", import.meta.url));

describe("IsolateRuntime: a fatal out-of-memory in V8", () => {
  // Without a catastrophic-error handler isolated-vm aborts the whole process (SIGABRT), so every
  // session of the gateway would die with one hostile program.
  it("fails that execution as kind memory; the process and the next execution carry on", () => {
    const child = spawnSync(process.execPath, ["--import", "tsx", FIXTURE], {
      encoding: "utf8",
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    // Printed after the fatal program: the process outlived it (on main it died of SIGABRT first).
    assert.ok(
      child.stdout.startsWith("{"),
      `no output; signal ${child.signal}\n${child.stderr.slice(-2000)}`,
    );
    const { fatal, next, lost } = JSON.parse(child.stdout) as {
      fatal: { error?: { kind: string; code?: string } };
      next: { result?: unknown };
      lost: number;
    };
    assert.equal(fatal.error?.kind, "memory", JSON.stringify(fatal));
    // Either isolated-vm's own limit stopped it, or V8 gave up and the run ended on the host's word.
    if (lost > 0) assert.equal(fatal.error?.code, ISOLATE_LOST_CODE);
    assert.equal(next.result, 2);
    // A process that lost an isolate cannot exit normally (its thread never ends): exitProcess kills it.
    if (lost > 0) assert.equal(child.signal, "SIGKILL");
    else assert.equal(child.status, 0, child.stderr.slice(-2000));
  });
});
