/** Name of the variable the prelude's bundle assigns its exports to, inside the prelude's closure. */
export const BUNDLE_GLOBAL_NAME = "toolscriptPrelude";

/** Name of the variable the process runner's bundle assigns its exports to (process/runner-source.ts). */
export const RUNNER_GLOBAL_NAME = "toolscriptRunner";

/** Name of the variable the Python runner's bundle assigns its exports to (python/runner-source.ts). */
export const PYTHON_RUNNER_GLOBAL_NAME = "toolscriptPythonRunner";
