/**
 * The entry of the process tier's runner bundle (scripts/build-sandbox-globals.ts),
 * the main module Deno runs for one execution (runner-source.ts wraps it). It
 * captures what it needs from `Deno` (stdin, stdout, exit) before anything else
 * runs, removes the authority-bearing globals, runs the same prelude as the
 * isolate tier, says `ready`, and then serves exactly one `run` message: the
 * prelude's host functions become JSON lines on stdout, answered by `reply`
 * lines on stdin. Only JSON crosses.
 */
import type { HostReply } from "../../shared/host-calls.ts";
import type { Start } from "../../shared/prelude/main.ts";
import type { HostReference } from "../../shared/prelude/run-state.ts";
import type { ChildMessage, HostMessage } from "../protocol.ts";
import type { DenoApi } from "./deno.ts";
import { installStackFormat } from "./stack-trace.ts";

/** What the host fills in when it writes the runner (runner-source.ts). */
export interface RunnerConfig {
  agentScriptName: string;
  preludeFileName: string;
  skillFilePrefix: string;
  /** The agent's wrapper around its code: a one-line head, so agent-stack.ts maps lines. */
  agentHead: string;
  agentTail: string;
  removedGlobals: readonly string[];
  preludeSource: string;
}

type Global = Record<string, unknown> & {
  Deno: DenoApi;
  addEventListener(type: string, listener: (event: { preventDefault(): void }) => void): void;
};

type RunMessage = Extract<HostMessage, { type: "run" }>;
type Request =
  | Omit<Extract<ChildMessage, { type: "call" }>, "id">
  | Omit<Extract<ChildMessage, { type: "search" }>, "id">
  | Omit<Extract<ChildMessage, { type: "op" }>, "id">;

/** `value && value[key]`: what a thrown value says of itself, whatever it is. */
function field(value: unknown, key: string): unknown {
  return value ? (value as Record<string, unknown>)[key] : value;
}

export function startRunner(config: RunnerConfig): void {
  // Captured first: the prelude and agent code run later and may remove or replace any of these.
  const g = globalThis as unknown as Global;
  const stdin = g.Deno.stdin.readable;
  const stdout = g.Deno.stdout;
  const writeSync = stdout.writeSync.bind(stdout);
  const exit: (code: number) => never = g.Deno.exit;
  const indirectEval = g.eval as (source: string) => unknown;
  const addListener = g.addEventListener.bind(g);
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const StringOf = String;
  const PromiseClass = Promise;
  const MapClass = Map;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  function send(message: ChildMessage | (Request & { id: number })): void {
    const bytes = encoder.encode(stringify(message) + "\n");
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(bytes.subarray(offset));
  }

  // An unhandled rejection or an error in a timer callback would end Deno; in the isolate tier they are ignored.
  addListener("unhandledrejection", (event) => event.preventDefault());
  addListener("error", (event) => event.preventDefault());

  installStackFormat(
    { agent: config.agentScriptName, prelude: config.preludeFileName, skillPrefix: config.skillFilePrefix },
    StringOf,
  );

  // Deno defines many globals as lazy getters; resolve them while the intrinsics they load (e.g. Atomics) still exist.
  const removed = config.removedGlobals;
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (removed.includes(name)) continue;
    try {
      g[name];
    } catch {
      // A global that cannot load is simply unavailable.
    }
  }
  const start = indirectEval(config.preludeSource + "\n//# sourceURL=" + config.preludeFileName) as Start;
  for (const name of removed) {
    delete g[name];
    // Deno puts a few back on delete (queueMicrotask); those are shadowed instead.
    if (name in globalThis)
      Object.defineProperty(globalThis, name, { value: undefined, writable: true, configurable: true });
  }

  const pending = new MapClass<number, (reply: HostReply) => void>();
  let nextId = 1;
  let started = false;
  function request(message: Request): Promise<HostReply> {
    return new PromiseClass((resolve) => {
      const id = nextId;
      nextId += 1;
      pending.set(id, resolve);
      send({ ...message, id });
    });
  }
  const hostCall: HostReference = {
    apply(_self, args) {
      return request({ type: "call", server: args[0], tool: args[1], args: args[2] });
    },
  };
  const hostSearch: HostReference = {
    apply(_self, args) {
      return request({ type: "search", query: args[0], limit: args[1], minScore: args[2] });
    },
  };
  const hostOp: HostReference = {
    apply(_self, args) {
      return request({ type: "op", op: args[0], args: args[1] });
    },
  };
  function hostLog(level: string, message: string): void {
    send({ type: "log", level, message });
  }

  async function run(message: RunMessage): Promise<void> {
    let agent: () => Promise<unknown>;
    try {
      agent = indirectEval(
        config.agentHead + message.code + config.agentTail + "\n//# sourceURL=" + config.agentScriptName,
      ) as () => Promise<unknown>;
    } catch (error) {
      send({
        type: "compileError",
        name: StringOf(field(error, "name")),
        message: StringOf(field(error, "message")),
      });
      exit(0);
    }
    const report = await start(
      agent,
      hostCall,
      message.search ? hostSearch : undefined,
      hostLog,
      message.toolsJson,
      message.contextJson,
      message.limitsJson,
      hostOp,
    );
    send({ type: "done", report });
    exit(0);
  }

  function handle(line: string): void {
    const message = parse(line) as HostMessage;
    if (message.type === "run" && !started) {
      started = true;
      void run(message);
    } else if (message.type === "reply") {
      const resolve = pending.get(message.id);
      pending.delete(message.id);
      if (resolve !== undefined) resolve(message.reply);
    }
  }

  async function serve(): Promise<void> {
    const reader = stdin.getReader();
    let buffer = "";
    for (;;) {
      const chunk = await reader.read();
      // The host closed stdin: nobody is left to answer.
      if (chunk.done) exit(0);
      buffer += decoder.decode(chunk.value, { stream: true });
      let index = buffer.indexOf("\n");
      while (index >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 1);
        handle(line);
        index = buffer.indexOf("\n");
      }
    }
  }

  send({ type: "ready" });
  void serve();
}
