import { AGENT_SCRIPT_NAME, wrapAgentCode } from "../isolate/agent-stack.ts";
import { PRELUDE_FILE_NAME, PRELUDE_SOURCE, SKILL_FILE_PREFIX } from "../isolate/prelude.ts";
import { RUNNER_GLOBAL_NAME } from "../shared/globals/bundle-name.ts";
import type { RunnerConfig } from "./runner/main.ts";
import { RUNNER_BUNDLE } from "./runner.generated.ts";

/**
 * Globals of Deno that reach outside the sandbox (or would, given a
 * permission). Every permission is denied anyway; removing them keeps the
 * sandbox's surface close to the isolate tier's and makes attempts fail early.
 */
export const DENO_REMOVED_GLOBALS = [
  "Deno",
  "process",
  "Buffer",
  "global",
  "setImmediate",
  "clearImmediate",
  "fetch",
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
  // Timers and microtask scheduling are absent in the isolate tier too; code must not rely on them.
  "setTimeout",
  "setInterval",
  "clearTimeout",
  "clearInterval",
  "queueMicrotask",
] as const;

// The agent's wrapper must stay a one-line head so agent-stack.ts maps lines.
const [AGENT_HEAD, AGENT_TAIL] = wrapAgentCode("\u0000").split("\u0000");

const CONFIG: RunnerConfig = {
  agentScriptName: AGENT_SCRIPT_NAME,
  preludeFileName: PRELUDE_FILE_NAME,
  skillFilePrefix: SKILL_FILE_PREFIX,
  agentHead: AGENT_HEAD ?? "",
  agentTail: AGENT_TAIL ?? "",
  removedGlobals: DENO_REMOVED_GLOBALS,
  preludeSource: PRELUDE_SOURCE,
};

/**
 * The main module Deno runs for one execution: the runner written as typed
 * TypeScript in process/runner/ and bundled at build time
 * (scripts/build-sandbox-globals.ts), started with the names and the prelude
 * the host shares with it. Nothing of the bundle is visible to agent code but
 * what the prelude installs.
 */
export const RUNNER_SOURCE = `"use strict";
(function () {
${RUNNER_BUNDLE.replace(/^"use strict";\n/, "")}
${RUNNER_GLOBAL_NAME}.startRunner(${JSON.stringify(CONFIG)});
})();
`;
