/**
 * The Python library programs import (`from toolscript.analysis import
 * aggregate`), for the Python runtime to write into the interpreter's
 * filesystem under a directory on `sys.path`. Pure standard library; the
 * sources live in python/lib/ and are embedded at build time
 * (lib-files.generated.ts), so nothing is read from disk at run time.
 */
import { PYTHON_LIB_FILES } from "./lib-files.generated.ts";
import type { PythonLibFile } from "./lib-source.ts";

export type { PythonLibFile } from "./lib-source.ts";

/** Every file of the library, paths relative to the `sys.path` entry (`toolscript/__init__.py`, `toolscript/analysis.py`). */
export function pythonLibFiles(): PythonLibFile[] {
  return PYTHON_LIB_FILES.map((file) => ({ path: file.path, source: file.source }));
}
