import type { ProcessTierSetup } from "../process/setup.ts";
import { type PyodideFiles, snapshotKey } from "./pyodide-files.ts";
import { startPythonProcess } from "./python-process.ts";
import { readSnapshot, receiveSnapshot, snapshotPath, writeSnapshot } from "./snapshot.ts";

/** Memory limit of the process that loads Pyodide from scratch to make the snapshot. */
const SNAPSHOT_MEMORY_MB = 256;

export interface SnapshotSourceOptions {
  setup: ProcessTierSetup;
  script: string;
  denoDir: string;
  pyodide: PyodideFiles;
  driver: readonly { path: string; source: string }[];
  /** Folder of the snapshot cache file; undefined keeps it in memory only. */
  cacheDir: string | undefined;
}

/** Snapshots made or read in this process, by key: runtimes of one gateway (and tests) share them. */
const inMemory = new Map<string, Promise<Buffer>>();

/**
 * The memory snapshot every interpreter is restored from: made once (Pyodide
 * loaded from scratch inside a sandbox process, the driver imported, then
 * `makeMemorySnapshot()`), cached in `cacheDir` under a key of Pyodide's
 * version and files and the driver's source, and read from there on later
 * starts. A damaged cache file fails its checksum and is made again.
 */
export function obtainSnapshot(options: SnapshotSourceOptions): Promise<Buffer> {
  const key = snapshotKey(options.pyodide, options.driver);
  const path = options.cacheDir === undefined ? undefined : snapshotPath(options.cacheDir, key);
  const known = inMemory.get(key);
  if (known !== undefined) {
    return known.then((snapshot) => {
      // Another runtime made it for another folder: cache it here too.
      if (path !== undefined && readSnapshot(path) === undefined) writeSnapshot(path, snapshot);
      return snapshot;
    });
  }
  const made = (async () => {
    const cached = path === undefined ? undefined : readSnapshot(path);
    if (cached !== undefined) return cached;
    const child = startPythonProcess({
      setup: options.setup,
      script: options.script,
      denoDir: options.denoDir,
      pyodide: options.pyodide,
      driver: options.driver,
      snapshot: undefined,
      makeSnapshot: true,
      memoryMb: SNAPSHOT_MEMORY_MB,
    });
    const snapshot = await receiveSnapshot(child);
    if (path !== undefined) writeSnapshot(path, snapshot);
    return snapshot;
  })();
  inMemory.set(key, made);
  made.catch(() => inMemory.delete(key));
  return made;
}
