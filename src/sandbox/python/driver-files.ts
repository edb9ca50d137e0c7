import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The Python driver (package `toolscript_driver`, written in Python in
 * ./driver/) as files to write into Pyodide's filesystem. The .py files are
 * read from disk: next to this module in src/, and from the package's
 * src/sandbox/python/driver/ when running from dist/ (tsc copies no .py file;
 * package.json "files" ships that folder).
 */
export interface PythonDriverFile {
  /** Relative to the folder to put on `sys.path`, e.g. `toolscript_driver/run.py`. */
  path: string;
  source: string;
}

const CANDIDATE_DIRS = [
  new URL("./driver/", import.meta.url),
  new URL("../../../src/sandbox/python/driver/", import.meta.url),
];

function driverDir(): string {
  for (const url of CANDIDATE_DIRS) {
    const dir = fileURLToPath(url);
    if (existsSync(`${dir}toolscript_driver/run.py`)) return dir;
  }
  throw new Error(
    `The Python driver is missing: no toolscript_driver/run.py under ${CANDIDATE_DIRS.map((url) => fileURLToPath(url)).join(" or ")}`,
  );
}

function listPython(dir: string, prefix: string): string[] {
  const entries = readdirSync(`${dir}${prefix}`, { withFileTypes: true });
  return entries
    .flatMap((entry) => {
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory()) return entry.name === "__pycache__" ? [] : listPython(dir, `${path}/`);
      return entry.name.endsWith(".py") ? [path] : [];
    })
    .sort();
}

let cached: readonly PythonDriverFile[] | undefined;

/** Every .py file of the driver folder (read once, then cached), relative paths in a stable order. */
export function pythonDriverFiles(): PythonDriverFile[] {
  if (cached === undefined) {
    const dir = driverDir();
    cached = listPython(dir, "").map((path) => ({ path, source: readFileSync(`${dir}${path}`, "utf8") }));
  }
  return cached.map((file) => ({ ...file }));
}
