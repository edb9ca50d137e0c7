/**
 * Names and limits the prelude and the host agree on. Imported by both sides:
 * by the prelude's modules (bundled into the sandbox) and by the host code that
 * compiles skills, maps stacks and checks reports.
 */

/** File name of the prelude in sandbox stacks; its frames are stripped from reports. */
export const PRELUDE_FILE_NAME = "toolscript:prelude";

/**
 * Longest string of an error report (message, stack, name, code, thrown value)
 * copied out of the sandbox; the rest is cut inside it, with a note of its length.
 */
export const MAX_REPORT_CHARS = 16 * 1024;

/** Globals the prelude removes: no use to agents, and extra attack surface (wasm JIT, shared memory). */
export const REMOVED_GLOBALS = ["WebAssembly", "SharedArrayBuffer", "Atomics"] as const;

/** Name of the function compiled `import ... from "skills/<name>"` declarations call (compile/skill-imports.ts). */
export const SKILL_IMPORT_FUNCTION = "__toolscript_import";

/** Skills run as scripts named `skills/<name>.ts` in stacks. */
export const SKILL_FILE_PREFIX = "skills/";

/** The module of analysis helpers programs and skills import (sandbox/analysis/, bundled into the prelude). */
export const ANALYSIS_MODULE = "toolscript/analysis";
