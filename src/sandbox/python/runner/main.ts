/**
 * The entry of the Python runner bundle (scripts/build-sandbox-globals.ts),
 * the main module Deno runs for one Python execution (python/runner-source.ts
 * wraps it). Deno runs it with no permission at all: it captures stdin, stdout
 * and exit, removes `Deno` and the other authority-bearing globals, receives
 * Pyodide's wasm, standard library and memory snapshot over stdin (boot.ts),
 * imports Pyodide's modules from the read-only folder bound into the sandbox,
 * loads the interpreter, says `ready`, and serves exactly one `run` message
 * through the driver's `run()`; tool calls, searches, workspace operations and
 * logs are JSON lines on stdout answered by `reply` lines on stdin, as in the
 * TypeScript runner. Made with `makeSnapshot`, it instead sends a memory
 * snapshot back and exits.
 */
import type { loadPyodide as LoadPyodide, PyodideAPI } from "pyodide";
import type { ChildMessage, HostMessage } from "../../process/protocol.ts";
import type { HostReply } from "../../shared/host-calls.ts";
import { type BootHeader, DELIVER_MODULE, DRIVER_MODULE } from "./boot.ts";
import { replyText } from "./reply-text.ts";
import { StdinReader } from "./stdin-reader.ts";

export interface PythonRunnerConfig {
  /** Globals removed before Pyodide loads (they reach outside, or would with a permission). */
  removedGlobals: readonly string[];
}

interface DenoApi {
  stdin: { readable: ReadableStream<Uint8Array> };
  stdout: { writeSync(bytes: Uint8Array): number };
  stderr: { writeSync(bytes: Uint8Array): number };
  exit(code: number): never;
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
type Outgoing = ChildMessage | (Request & { id: number });

/** What the driver's `run()` is, seen from JavaScript. */
type DriverRun = (
  code: string,
  contextJson: string | null,
  toolsJson: string,
  limitsJson: string,
  host: object,
  skills: Record<string, string> | null,
) => Promise<string>;

const NO_SEARCH: HostReply = {
  ok: false,
  error: { name: "Error", message: "search_tools is not available in this gateway" },
};

function base64(bytes: Uint8Array): string {
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  if (typeof native === "function") return native.call(bytes);
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** Imports of Pyodide's two modules, written with literal specifiers by runner-source.ts. */
export interface PyodideImports {
  pyodide: () => Promise<unknown>;
  asm: () => Promise<unknown>;
}

export function startPythonRunner(config: PythonRunnerConfig, imports: PyodideImports): void {
  // Captured first: Pyodide and agent code run later, and nothing of Deno stays reachable from globalThis.
  const g = globalThis as unknown as Global;
  const deno = g.Deno;
  const stdin = new StdinReader(deno.stdin.readable);
  const stdout = deno.stdout;
  const writeSync = stdout.writeSync.bind(stdout);
  const stderr = deno.stderr;
  const exit: (code: number) => never = deno.exit;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const StringOf = String;
  const encoder = new TextEncoder();

  function send(message: Outgoing): void {
    const bytes = encoder.encode(stringify(message) + "\n");
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(bytes.subarray(offset));
  }
  function log(level: string, message: string): void {
    send({ type: "log", level, message });
  }

  // An unhandled rejection or an error in a timer callback would end Deno before the driver reports.
  g.addEventListener("unhandledrejection", (event) => event.preventDefault());
  g.addEventListener("error", (event) => event.preventDefault());

  for (const name of config.removedGlobals) {
    delete g[name];
    if (name in globalThis)
      Object.defineProperty(globalThis, name, { value: undefined, writable: true, configurable: true });
  }
  // console writes to the real stdout, the protocol's stream: its output becomes log messages instead.
  const consoleLevels = ["log", "info", "warn", "error", "debug"] as const;
  const quietConsole: Record<string, unknown> = {};
  for (const level of consoleLevels) {
    quietConsole[level] = (...args: unknown[]) => log(level, args.map((arg) => StringOf(arg)).join(" "));
  }
  for (const other of ["trace", "dir", "table", "assert", "count", "time", "timeEnd", "group", "groupEnd"]) {
    quietConsole[other] = () => {};
  }
  Object.defineProperty(globalThis, "console", { value: quietConsole, writable: true, configurable: true });

  async function load(
    header: BootHeader,
    files: { wasm: Uint8Array; stdlib: Uint8Array; snapshot?: Uint8Array },
  ) {
    // Pyodide supports Deno only through its Node paths (node:fs); as a module worker it fetches instead, served here.
    g.WorkerGlobalScope = Object.defineProperty(function WorkerGlobalScope() {}, Symbol.hasInstance, {
      value: () => true,
    });
    const served: Record<string, Uint8Array> = {
      "pyodide.asm.wasm": files.wasm,
      "python_stdlib.zip": files.stdlib,
    };
    g.fetch = async (url: unknown) => {
      const name = StringOf(url).split("/").pop() ?? "";
      const bytes = served[name];
      if (bytes === undefined)
        throw new TypeError(`nothing can be fetched in this sandbox (${StringOf(url)})`);
      const type = name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
      return new Response(bytes, { headers: { "content-type": type } });
    };
    try {
      const pyodideModule = (await imports.pyodide()) as { loadPyodide: typeof LoadPyodide };
      const asm = (await imports.asm()) as { default: unknown };
      const pyodide = await pyodideModule.loadPyodide({
        indexURL: header.indexURL,
        createPyodideModule: asm.default as never,
        lockFileContents: header.lockJson,
        packages: [],
        env: { HOME: "/home/pyodide" },
        stdout: (line: string) => log("log", line),
        stderr: (line: string) => log("error", line),
        ...(files.snapshot === undefined
          ? { _makeSnapshot: header.makeSnapshot }
          : { _loadSnapshot: files.snapshot }),
      });
      for (const file of header.driver) {
        const path = `${header.driverDir}/${file.path}`;
        pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
        pyodide.FS.writeFile(path, file.source);
      }
      pyodide.runPython(
        `import sys\nif ${stringify(header.driverDir)} not in sys.path: sys.path.insert(0, ${stringify(header.driverDir)})`,
      );
      return pyodide;
    } finally {
      // Nothing is fetched after loading: Pyodide's loadPackage and pyfetch find no fetch at all.
      delete g.fetch;
      if ("fetch" in globalThis) g.fetch = undefined;
      delete g.WorkerGlobalScope;
    }
  }

  /**
   * Requests from Python: `host.send(kind, a, b, c)` writes one and returns its
   * id at once; the reply line goes back through the driver's `deliver(id,
   * replyJson)` (the driver parses the JSON in Python). Whatever Python passes
   * is only ever written as data in a message the host checks.
   */
  let nextId = 1;
  let deliverReply: (id: number, replyJson: string) => void = () => {};
  function sendRequest(message: Request): number {
    const id = nextId;
    nextId += 1;
    send({ ...message, id });
    return id;
  }
  const NO_SEARCH_JSON = stringify(NO_SEARCH);

  async function run(driverRun: DriverRun, message: RunMessage): Promise<void> {
    const host = {
      send: (kind: unknown, a: unknown, b: unknown, c: unknown): number => {
        if (kind === "call") return sendRequest({ type: "call", server: a, tool: b, args: c });
        if (kind === "op") return sendRequest({ type: "op", op: a, args: b });
        if (kind === "search" && message.search)
          return sendRequest({ type: "search", query: a, limit: b, minScore: c });
        // Answered here, after Python has registered the id it is given.
        const id = nextId;
        nextId += 1;
        const reply =
          kind === "search"
            ? NO_SEARCH_JSON
            : stringify({
                ok: false,
                error: { name: "TypeError", message: `Unknown request ${StringOf(kind)}` },
              });
        setTimeout(() => deliverReply(id, reply), 0);
        return id;
      },
      log: (level: unknown, text: unknown) => log(StringOf(level), StringOf(text)),
    };
    let json: string;
    try {
      const skills =
        message.skillsJson === undefined ? null : (parse(message.skillsJson) as Record<string, string>);
      json = StringOf(
        await driverRun(
          message.code,
          message.contextJson ?? null,
          message.toolsJson,
          message.limitsJson,
          host,
          skills,
        ),
      );
    } catch (error) {
      const name = StringOf((error as { name?: unknown } | null)?.name ?? "Error");
      const text = StringOf((error as { message?: unknown } | null)?.message ?? error);
      json = stringify({ error: { kind: "runtime", name, message: text } });
    }
    send({ type: "outcome", json });
    exit(0);
  }

  async function main(): Promise<void> {
    const boot = await stdin.boot();
    if (boot === undefined) exit(0);
    const pyodide: PyodideAPI = await load(boot.header, boot.files);
    if (boot.header.makeSnapshot) {
      // Imported before the snapshot, so every interpreter restored from it starts with the driver loaded.
      pyodide.pyimport(DRIVER_MODULE);
      send({ type: "snapshot", base64: base64(pyodide.makeMemorySnapshot()) });
      exit(0);
    }
    // The modules' `run` and `deliver`, whatever the package's __init__ binds to the same names.
    const driverRun = pyodide.runPython(
      `import importlib\nimportlib.import_module(${stringify(DRIVER_MODULE)}).run`,
    ) as DriverRun;
    const deliver = pyodide.runPython(
      `import importlib\nimportlib.import_module(${stringify(DELIVER_MODULE)}).deliver`,
    ) as (id: number, replyJson: string) => void;
    deliverReply = (id, replyJson) => {
      try {
        deliver(id, replyJson);
      } catch {
        // SystemExit or KeyboardInterrupt out of a task the program made: its task holds it, as in Pyodide's own loop.
      }
    };
    send({ type: "ready" });
    let started = false;
    for (;;) {
      const line = await stdin.line();
      // The host closed stdin: nobody is left to answer.
      if (line === undefined) exit(0);
      const reply = replyText(line);
      if (reply !== undefined) {
        deliverReply(reply.id, reply.json);
        continue;
      }
      const message = parse(line) as HostMessage;
      if (message.type === "run" && !started) {
        started = true;
        void run(driverRun, message);
      }
    }
  }

  main().catch((error: unknown) => {
    const name = StringOf((error as { name?: unknown } | null)?.name ?? "Error");
    const text = StringOf((error as { message?: unknown } | null)?.message ?? error);
    // Before `ready` nobody reads logs: stderr is what the host reports when the process ends early.
    stderr.writeSync(encoder.encode(`the Python sandbox failed: ${name}: ${text}\n`));
    exit(70);
  });
}
