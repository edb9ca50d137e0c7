import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { pythonDriverFiles } from "./driver-files.ts";
import { pyodideFiles, snapshotKey } from "./pyodide-files.ts";
import { PythonRuntime } from "./runtime.ts";
import { readSnapshot, snapshotPath, writeSnapshot } from "./snapshot.ts";
import { runPython, TEST_SNAPSHOT_CACHE, testBridge } from "./test-runtime.ts";

const dir = mkdtempSync(join(tmpdir(), "toolscript-py-snapshot-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("the Pyodide memory snapshot cache", () => {
  it("writes atomically with a checksum; a damaged or truncated file reads as absent", () => {
    const path = snapshotPath(dir, "k");
    assert.equal(readSnapshot(path), undefined);
    assert.equal(writeSnapshot(path, Buffer.from("snapshot bytes")), true);
    assert.deepEqual(readSnapshot(path), Buffer.from("snapshot bytes"));
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.endsWith(".tmp")),
      [],
    );
    const file = readFileSync(path);
    file.writeUInt8(file.readUInt8(file.length - 1) ^ 0xff, file.length - 1);
    writeFileSync(path, file);
    assert.equal(readSnapshot(path), undefined);
    writeFileSync(path, file.subarray(0, 10));
    assert.equal(readSnapshot(path), undefined);
    // A folder that cannot be made (its parent is a file): the snapshot stays in memory only.
    assert.equal(writeSnapshot(join(path, "below-a-file", "s.bin"), Buffer.from("x")), false);
  });

  it("is keyed by Pyodide's version and files and the driver's source", () => {
    const files = pyodideFiles();
    const driver = pythonDriverFiles();
    const key = snapshotKey(files, driver);
    assert.match(key, new RegExp(`^${files.version.replace(/\./g, "\\.")}-[0-9a-f]{16}$`));
    const changed = driver.map((file, i) =>
      i === 0 ? { ...file, source: `${file.source}\n# changed` } : file,
    );
    assert.notEqual(snapshotKey(files, changed), key);
  });

  it("a corrupt cache file is ignored: the runtime makes the snapshot again and runs Python", async () => {
    const key = snapshotKey(pyodideFiles(), pythonDriverFiles());
    const cacheDir = join(dir, "cache");
    // Start from the shared test cache (made by another test file or now), then damage it.
    const good = readSnapshot(snapshotPath(TEST_SNAPSHOT_CACHE, key));
    writeSnapshot(snapshotPath(cacheDir, key), good ?? Buffer.from("placeholder"));
    const path = snapshotPath(cacheDir, key);
    const damaged = readFileSync(path);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 1) ^ 0xff, damaged.length - 1);
    writeFileSync(path, damaged);
    const runtime = await PythonRuntime.create({ driverFiles: pythonDriverFiles(), poolSize: 0, cacheDir });
    try {
      const result = await runPython(runtime, testBridge(), "6 * 7");
      assert.equal(result.result, 42, JSON.stringify(result.error));
      assert.notEqual(readSnapshot(path), undefined, "the rebuilt snapshot is cached again");
    } finally {
      await runtime.close();
    }
  });

  it("without the process tier, Python refuses with the reason", async () => {
    await assert.rejects(
      PythonRuntime.create({ driverFiles: pythonDriverFiles(), bubblewrapPath: "/nonexistent/bwrap" }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "python.process_tier_unavailable");
        assert.match(error.message, /process sandbox tier.*bwrap/s);
        return true;
      },
    );
  });
});
