import { AGENT_SCRIPT_NAME, wrapAgentCode } from "../isolate/agent-stack.ts";
import { PRELUDE_FILE_NAME, PRELUDE_SOURCE, SKILL_FILE_PREFIX } from "../isolate/prelude.ts";

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

/**
 * The main module Deno runs for one execution. It captures what it needs from
 * `Deno` (stdin, stdout, exit), removes the authority-bearing globals, runs the
 * same prelude as the isolate tier, says `ready`, and then serves exactly one
 * `run` message: the prelude's host functions become JSON lines on stdout,
 * answered by `reply` lines on stdin. Only JSON crosses.
 */
export const RUNNER_SOURCE = `"use strict";
const stdin = Deno.stdin.readable;
const stdout = Deno.stdout;
const writeSync = stdout.writeSync.bind(stdout);
const exit = Deno.exit;
const indirectEval = globalThis.eval;
const addListener = globalThis.addEventListener.bind(globalThis);
const stringify = JSON.stringify;
const parse = JSON.parse;
const StringOf = String;
const PromiseClass = Promise;
const MapClass = Map;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const AGENT = ${JSON.stringify(AGENT_SCRIPT_NAME)};
const PRELUDE = ${JSON.stringify(PRELUDE_FILE_NAME)};
const SKILL_PREFIX = ${JSON.stringify(SKILL_FILE_PREFIX)};

function send(message) {
  const bytes = encoder.encode(stringify(message) + "\\n");
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(bytes.subarray(offset));
}

// An unhandled rejection or an error in a timer callback would end Deno; in the isolate tier they are ignored.
addListener("unhandledrejection", (event) => event.preventDefault());
addListener("error", (event) => event.preventDefault());

// Stacks in V8's format, with agent frames named like the isolate tier's and every other script's frames left out.
function frameText(frame) {
  if (frame.isPromiseAll()) return "async Promise.all (index " + frame.getPromiseIndex() + ")";
  const file = frame.getScriptNameOrSourceURL();
  const location = file ? file + ":" + frame.getLineNumber() + ":" + frame.getColumnNumber() : "<anonymous>";
  let name = frame.getFunctionName();
  // V8 names the agent's anonymous function after the eval that created it.
  if (name === "eval" && frame.isEval()) name = null;
  const type = frame.isToplevel() ? null : frame.getTypeName();
  if (name && type && !frame.isConstructor()) name = type + "." + name;
  if (name && frame.isConstructor()) name = "new " + name;
  return (frame.isAsync() ? "async " : "") + (name ? name + " (" + location + ")" : location);
}
Error.prepareStackTrace = function (error, frames) {
  let text;
  try {
    const name = StringOf(error.name);
    const message = StringOf(error.message);
    text = message === "" ? name : name + ": " + message;
  } catch (ignored) {
    text = "Error";
  }
  for (const frame of frames) {
    const file = frame.getScriptNameOrSourceURL();
    if (file && file !== AGENT && file !== PRELUDE && !file.startsWith(SKILL_PREFIX)) continue;
    text += "\\n    at " + frameText(frame);
  }
  return text;
};

// Deno defines many globals as lazy getters; resolve them while the intrinsics they load (e.g. Atomics) still exist.
const REMOVED = ${JSON.stringify(DENO_REMOVED_GLOBALS)};
for (const name of Object.getOwnPropertyNames(globalThis)) {
  if (REMOVED.includes(name)) continue;
  try {
    globalThis[name];
  } catch (ignored) {
    // A global that cannot load is simply unavailable.
  }
}
const start = indirectEval(${JSON.stringify(PRELUDE_SOURCE)} + "\\n//# sourceURL=" + PRELUDE);
for (const name of REMOVED) {
  delete globalThis[name];
  // Deno puts a few back on delete (queueMicrotask); those are shadowed instead.
  if (name in globalThis) Object.defineProperty(globalThis, name, { value: undefined, writable: true, configurable: true });
}

const pending = new MapClass();
let nextId = 1;
let started = false;
function request(message) {
  return new PromiseClass((resolve) => {
    const id = nextId;
    nextId += 1;
    pending.set(id, resolve);
    message.id = id;
    send(message);
  });
}
const hostCall = {
  apply(self, args) {
    return request({ type: "call", server: args[0], tool: args[1], args: args[2] });
  },
};
const hostSearch = {
  apply(self, args) {
    return request({ type: "search", query: args[0], limit: args[1], minScore: args[2] });
  },
};
const hostOp = {
  apply(self, args) {
    return request({ type: "op", op: args[0], args: args[1] });
  },
};
function hostLog(level, message) {
  send({ type: "log", level, message });
}

async function run(message) {
  let agent;
  try {
    agent = indirectEval(${JSON.stringify(AGENT_HEAD)} + message.code + ${JSON.stringify(AGENT_TAIL)} + "\\n//# sourceURL=" + AGENT);
  } catch (error) {
    send({ type: "compileError", name: StringOf(error && error.name), message: StringOf(error && error.message) });
    exit(0);
  }
  const report = await start(agent, hostCall, message.search ? hostSearch : undefined, hostLog, message.toolsJson, message.contextJson, message.limitsJson, hostOp);
  send({ type: "done", report });
  exit(0);
}

function handle(line) {
  const message = parse(line);
  if (message.type === "run" && !started) {
    started = true;
    run(message);
  } else if (message.type === "reply") {
    const resolve = pending.get(message.id);
    pending.delete(message.id);
    if (resolve !== undefined) resolve(message.reply);
  }
}

async function serve() {
  const reader = stdin.getReader();
  let buffer = "";
  for (;;) {
    const chunk = await reader.read();
    // The host closed stdin: nobody is left to answer.
    if (chunk.done) exit(0);
    buffer += decoder.decode(chunk.value, { stream: true });
    let index = buffer.indexOf("\\n");
    while (index >= 0) {
      const line = buffer.slice(0, index);
      buffer = buffer.slice(index + 1);
      handle(line);
      index = buffer.indexOf("\\n");
    }
  }
}

send({ type: "ready" });
serve();
`;
