import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SandboxProcess } from "../process/sandbox-process.ts";
import { PythonSandboxError } from "./errors.ts";

/** Time the sandbox gets to load Pyodide from scratch and make the snapshot (~2.5 s measured). */
export const SNAPSHOT_TIMEOUT_MS = 120_000;
const MAGIC = Buffer.from("toolscript-pyodide-snapshot-1\n");
const DIGEST_BYTES = 32;

function digest(bytes: Uint8Array): Buffer {
  return createHash("sha256").update(bytes).digest();
}

/** The cache file of one snapshot key in `cacheDir`. */
export function snapshotPath(cacheDir: string, key: string): string {
  return join(cacheDir, `pyodide-snapshot-${key}.bin`);
}

/** A cached snapshot, or undefined when there is none or it is damaged (its checksum fails). */
export function readSnapshot(path: string): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  const start = MAGIC.length + DIGEST_BYTES;
  if (file.length <= start || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const body = file.subarray(start);
  return digest(body).equals(file.subarray(MAGIC.length, start)) ? body : undefined;
}

/** Writes a snapshot with its checksum, atomically (a temporary file renamed); false when the folder is not writable. */
export function writeSnapshot(path: string, snapshot: Uint8Array): boolean {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(temporary, Buffer.concat([MAGIC, digest(snapshot), snapshot]));
    renameSync(temporary, path);
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Its folder could not be made: there is nothing to remove.
    }
    return false;
  }
}

/** Has a sandbox process started in snapshot mode load Pyodide from scratch and send its memory snapshot. */
export async function receiveSnapshot(
  child: SandboxProcess,
  timeoutMs = SNAPSHOT_TIMEOUT_MS,
): Promise<Buffer> {
  const timer = setTimeout(() => child.kill(), timeoutMs);
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      child.attach((message) => {
        if (message.type === "snapshot" && typeof message.base64 === "string") {
          resolve(Buffer.from(message.base64, "base64"));
        }
      });
      // Messages before `ready` are not dispatched to the handler: the snapshot process never says ready.
      child.ready.catch(() => {});
      void child.exited.then((exit) => {
        const status = exit.signal === null ? `exit code ${exit.code}` : `signal ${exit.signal}`;
        reject(
          new PythonSandboxError(
            "python.snapshot_failed",
            `Pyodide's memory snapshot could not be made: the sandbox process ended (${status})${exit.stderr.trim() ? `: ${exit.stderr.trim().split("\n")[0]}` : ""}`,
            { data: { stderr: exit.stderr } },
          ),
        );
      });
    });
  } finally {
    clearTimeout(timer);
    child.kill();
  }
}
