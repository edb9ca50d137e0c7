import { pathToFileURL } from "node:url";
import { sandboxCommand } from "../process/command.ts";
import { SandboxProcess } from "../process/sandbox-process.ts";
import type { ProcessTierSetup } from "../process/setup.ts";
import type { PyodideFiles } from "./pyodide-files.ts";
import type { BootHeader } from "./runner/boot.ts";

/** Where Pyodide's folder is bound, read-only, inside the bubblewrap sandbox. */
export const SANDBOX_PYODIDE_DIR = "/toolscript/pyodide";
/** Where the driver's .py files live in Pyodide's own (in-memory) filesystem; put on `sys.path`. */
export const DRIVER_DIR = "/lib/toolscript";
/**
 * Memory (MiB) a restored interpreter takes beyond Deno's own reservation,
 * added to the process's data limit: the compiled wasm, its linear memory from
 * the snapshot, the boot buffers (measured: VmData ~760 MiB against Deno's 640
 * reserved, so ~120), and room for the JavaScript side, where every value
 * crossing to or from the host is a string on its way and V8's concurrent GC
 * frees it late on a busy machine (a 2 MB tool result at memoryMb 64 failed
 * with 72 and then 136 MiB of margin under a loaded test run). The program's
 * own memory, 2 x memoryMb as for TypeScript, comes on top.
 */
export const PYODIDE_BASE_DATA_MB = 320;

/** Pyodide's folder as the sandboxed Deno sees it. */
export function pyodideIndexURL(setup: ProcessTierSetup, pyodide: PyodideFiles): string {
  return setup.bubblewrap !== undefined
    ? `file://${SANDBOX_PYODIDE_DIR}/`
    : `${pathToFileURL(pyodide.dir).href}/`;
}

/**
 * The V8 heap limit of a Python process never goes below this: Pyodide's own
 * JavaScript needs room to load (at 16 MiB, V8 gives up while restoring) and
 * every value crossing between Python and the host is a JavaScript string on
 * the way (a 2 MB tool result failed at 64 MiB). The program's memory is the
 * wasm heap; the process's data limit caps both.
 */
export const PYODIDE_MIN_HEAP_MB = 256;

/**
 * V8 flags of a Python process. Each execution has a fresh process, so V8
 * tiers Pyodide's hot wasm functions up while the program runs; without
 * inlining between wasm functions that optimizing work is a fraction
 * (measured over 3000 tool calls: V8's compile threads took ~150 us of CPU
 * per call with it, ~35 without; through the gateway, per tool call went
 * from ~1.45x to ~1.1x the TypeScript process tier's, on 2 shared cores).
 */
export const PYODIDE_V8_FLAGS = ["--no-wasm-inlining"] as const;

export interface PythonProcessOptions {
  setup: ProcessTierSetup;
  /** The Python runner script and Deno's cache dir (writeRunnerFiles(pythonRunnerSource(pyodideIndexURL(...)))). */
  script: string;
  denoDir: string;
  pyodide: PyodideFiles;
  driver: readonly { path: string; source: string }[];
  /** Restored by the interpreter; undefined loads from scratch (slow) or, with `makeSnapshot`, makes one. */
  snapshot: Uint8Array | undefined;
  makeSnapshot?: boolean;
  memoryMb: number;
  maxMessageBytes?: number;
}

/**
 * Starts one sandbox process for Python (prlimit, bubblewrap and Deno exactly
 * as for TypeScript, plus Pyodide's folder bound read-only) and writes its
 * boot data: Deno has no read permission, so the wasm, the standard library
 * and the snapshot go over stdin.
 */
export function startPythonProcess(options: PythonProcessOptions): SandboxProcess {
  const { setup, pyodide } = options;
  const inside = setup.bubblewrap !== undefined;
  const command = sandboxCommand({
    ...setup,
    script: options.script,
    denoDir: options.denoDir,
    memoryMb: options.memoryMb,
    baseDataMb: PYODIDE_BASE_DATA_MB,
    heapMb: Math.max(options.memoryMb, PYODIDE_MIN_HEAP_MB),
    v8Flags: PYODIDE_V8_FLAGS,
    readOnlyBinds: inside ? [{ source: pyodide.dir, path: SANDBOX_PYODIDE_DIR }] : [],
  });
  const child = new SandboxProcess(command, options.maxMessageBytes);
  const snapshot = options.snapshot ?? new Uint8Array(0);
  const header: BootHeader = {
    type: "boot",
    indexURL: pyodideIndexURL(setup, pyodide),
    sizes: { wasm: pyodide.wasm.length, stdlib: pyodide.stdlib.length, snapshot: snapshot.length },
    lockJson: pyodide.lockJson,
    driver: options.driver.map((file) => ({ path: file.path, source: file.source })),
    driverDir: DRIVER_DIR,
    makeSnapshot: options.makeSnapshot === true,
  };
  child.write(`${JSON.stringify(header)}\n`);
  child.write(pyodide.wasm);
  child.write(pyodide.stdlib);
  if (snapshot.length > 0) child.write(snapshot);
  return child;
}
