import { PYTHON_RUNNER_GLOBAL_NAME } from "../shared/globals/bundle-name.ts";
import type { PythonRunnerConfig } from "./runner/main.ts";
import { PYTHON_RUNNER_BUNDLE } from "./runner.generated.ts";

/**
 * Globals of Deno removed before Pyodide loads. Deno runs with no permission
 * anyway; removing `Deno` keeps `import js` and `run_js` from even seeing the
 * runtime's API. Timers stay: Pyodide's event loop (asyncio.sleep) needs them.
 */
export const PYTHON_REMOVED_GLOBALS = [
  "Deno",
  "process",
  "Buffer",
  "global",
  "require",
  "setImmediate",
  "clearImmediate",
  "WebSocket",
  "WebSocketStream",
  "EventSource",
  "Worker",
  "BroadcastChannel",
  "caches",
  "localStorage",
  "sessionStorage",
  "navigator",
  "alert",
  "confirm",
  "prompt",
  "close",
  "postMessage",
  "onmessage",
] as const;

const CONFIG: PythonRunnerConfig = { removedGlobals: PYTHON_REMOVED_GLOBALS };

/**
 * The main module Deno runs for one Python execution (or to make the memory
 * snapshot): the runner written as typed TypeScript in python/runner/ and
 * bundled at build time (scripts/build-sandbox-globals.ts). Pyodide's modules
 * are imported with literal specifiers: Deno loads those with the module
 * graph, where a computed one would need a read permission the sandbox lacks.
 */
export function pythonRunnerSource(indexURL: string): string {
  const pyodide = JSON.stringify(`${indexURL}pyodide.mjs`);
  const asm = JSON.stringify(`${indexURL}pyodide.asm.mjs`);
  return `"use strict";
(function () {
${PYTHON_RUNNER_BUNDLE.replace(/^"use strict";\n/, "")}
${PYTHON_RUNNER_GLOBAL_NAME}.startPythonRunner(${JSON.stringify(CONFIG)}, {
  pyodide: () => import(${pyodide}),
  asm: () => import(${asm}),
});
})();
`;
}
