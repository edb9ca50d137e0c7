import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PythonSandboxError } from "./errors.ts";
import { PYTHON_RUNNER_BUNDLE } from "./runner.generated.ts";

/** Pyodide's files the sandbox needs: the two modules it imports, and what the host sends over stdin. */
export interface PyodideFiles {
  /** Host folder of the `pyodide` npm package, bound read-only into the sandbox. */
  dir: string;
  /** The npm package's version (e.g. 314.0.7). */
  version: string;
  wasm: Buffer;
  stdlib: Buffer;
  /** The lock file with its package list emptied: nothing can be installed. */
  lockJson: string;
}

let cached: PyodideFiles | undefined;

/** Reads Pyodide's files once (about 12 MB) from the `pyodide` npm package. */
export function pyodideFiles(): PyodideFiles {
  if (cached !== undefined) return cached;
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));
  } catch (cause) {
    throw new PythonSandboxError(
      "python.pyodide_missing",
      'Python programs need the npm package "pyodide", which is not installed. Reinstall toolscript (npm install).',
      { cause },
    );
  }
  try {
    const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string })
      .version;
    const lock = JSON.parse(readFileSync(join(dir, "pyodide-lock.json"), "utf8")) as Record<string, unknown>;
    cached = {
      dir,
      version,
      wasm: readFileSync(join(dir, "pyodide.asm.wasm")),
      stdlib: readFileSync(join(dir, "python_stdlib.zip")),
      lockJson: JSON.stringify({ ...lock, packages: {} }),
    };
    return cached;
  } catch (cause) {
    throw new PythonSandboxError(
      "python.pyodide_missing",
      `Pyodide's files in ${dir} cannot be read (pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/** What a memory snapshot depends on: Pyodide's version and wasm, the runner that boots it and the driver's source. */
export function snapshotKey(
  files: PyodideFiles,
  driver: readonly { path: string; source: string }[],
): string {
  const hash = createHash("sha256");
  hash.update(files.version).update("\0").update(files.wasm).update("\0").update(files.stdlib);
  hash.update("\0").update(PYTHON_RUNNER_BUNDLE);
  for (const file of driver) hash.update("\0").update(file.path).update("\0").update(file.source);
  return `${files.version}-${hash.digest("hex").slice(0, 16)}`;
}
