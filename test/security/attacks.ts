import type { ExecuteResponse } from "../../src/gateway/types.ts";

/** What an attack must end in: a clear error of one of these kinds, or a result the check accepts. */
export interface Attack {
  name: string;
  category:
    | "host reach"
    | "filesystem/network"
    | "environment"
    | "exhaustion"
    | "bridge abuse"
    | "output abuse";
  code: string;
  /** The program's language; TypeScript when absent. */
  language?: "python";
  /**
   * Only through a real `toolscript serve`: the attack leaves an abandoned isolate thread
   * behind, which would keep the test's own process from exiting.
   */
  serveOnly?: boolean;
  /** Returns a problem description, or undefined when the outcome is safe. */
  check(response: ExecuteResponse): string | undefined;
}

const NOT_REACHED = ["undefined", "threw"];

/** The code returns a map of probes; each must be "undefined" or "threw". */
function probes(name: string, category: Attack["category"], body: string): Attack {
  return {
    name,
    category,
    // A probe awaits what it reaches: an async Function constructor hands back a promise of the real value.
    code: `const probe = async (f) => { try { let v = f(); if (v && typeof v.then === "function") v = await v; return v === undefined || v === null ? "undefined" : typeof v; } catch { return "threw"; } };\n${body.replaceAll("probe(() =>", "await probe(() =>")}`,
    check(response) {
      if (response.error) return undefined; // refusing outright is fine too
      const result = response.result as Record<string, string>;
      const bad = Object.entries(result ?? {}).filter(([, value]) => !NOT_REACHED.includes(value));
      return bad.length ? `reached: ${bad.map(([key, value]) => `${key}=${value}`).join(", ")}` : undefined;
    },
  };
}

function endsInError(kinds: string[], name?: RegExp) {
  return (response: ExecuteResponse): string | undefined => {
    if (!response.error) return `expected an error (${kinds.join("/")}), got a result`;
    if (!kinds.includes(response.error.kind))
      return `expected ${kinds.join("/")}, got ${response.error.kind}: ${response.error.message}`;
    if (name && !name.test(response.error.name)) return `expected ${name}, got ${response.error.name}`;
    return undefined;
  };
}

const boundedOrError = (response: ExecuteResponse): string | undefined => {
  const size = JSON.stringify(response.result ?? null).length;
  return size > 8 * 1024 * 1024 ? `unbounded result of ${size} bytes` : undefined;
};

/**
 * The most any text of an answer may carry: the output budget is ~2,000 tokens,
 * and the hard cap is well under the 10 MiB an MCP client accepts.
 */
const MAX_ANSWER_TEXT_BYTES = 1024 * 1024;

/** An error (any kind) whose message and stack stay under MAX_ANSWER_TEXT_BYTES. */
function boundedError(response: ExecuteResponse): string | undefined {
  if (!response.error) return "expected an error, got a result";
  const size =
    response.error.message.length + (response.error.stack?.length ?? 0) + response.error.name.length;
  return size > MAX_ANSWER_TEXT_BYTES ? `error text not capped: ${size} characters` : undefined;
}

/** A bounded result and bounded logs, or an error of these kinds (running out of time always counts as contained). */
function boundedOrErrorOf(errorKinds: string[]) {
  const kinds = [...errorKinds, "timeout"];
  return (response: ExecuteResponse): string | undefined => {
    if (response.error) {
      if (!kinds.includes(response.error.kind))
        return `expected ${kinds.join("/")}, got ${response.error.kind}: ${response.error.message.slice(0, 200)}`;
      return boundedError(response);
    }
    const logBytes = response.logs.reduce((sum, entry) => sum + entry.message.length, 0);
    if (logBytes > MAX_ANSWER_TEXT_BYTES) return `logs not capped: ${logBytes} characters`;
    const size = JSON.stringify(response.result ?? null).length;
    return size > MAX_ANSWER_TEXT_BYTES ? `result not capped: ${size} characters` : undefined;
  };
}

const TWELVE_MIB = "12 * 1024 * 1024";

/** Attacks whose code needs the canaries' values get them through `context`. */
export function attacks(canary: { file: string; url: string }): Attack[] {
  return [
    probes(
      "process global",
      "host reach",
      "return { p: probe(() => process), g: probe(() => globalThis.process) }",
    ),
    probes(
      "require and module",
      "host reach",
      "return { r: probe(() => require), m: probe(() => module), e: probe(() => exports) }",
    ),
    probes(
      "Function constructor to process",
      "host reach",
      `return {
        a: probe(() => this.constructor.constructor("return process")()),
        b: probe(() => Function("return process")()),
        c: probe(() => (async () => {}).constructor("return process")()),
        d: probe(() => Function("return this")().process),
      }`,
    ),
    probes(
      "tools and console constructors",
      "host reach",
      `return {
        t: probe(() => tools.constructor.constructor("return process")()),
        s: probe(() => tools.scripted.echo.constructor("return process")()),
        c: probe(() => console.log.constructor("return process")()),
        x: probe(() => Object.getPrototypeOf(tools.scripted.echo).constructor("return process")()),
      }`,
    ),
    probes(
      "error from a host call walks to process",
      "host reach",
      `let caught;
       try { await tools.scripted.fail({}); } catch (error) { caught = error; }
       return {
         ctor: probe(() => caught.constructor.constructor("return process")()),
         proto: probe(() => Object.getPrototypeOf(Object.getPrototypeOf(caught)).constructor.constructor("return process")()),
         data: probe(() => caught.data && caught.data.constructor.constructor("return process")()),
       }`,
    ),
    {
      name: "Error.prepareStackTrace to grab host frames",
      category: "host reach",
      code: `Error.prepareStackTrace = (error, frames) => frames.map((f) => { try { return String(f.getThis && f.getThis()) + f.getFileName(); } catch { return "x"; } }).join("|");
             let stack = "";
             try { await tools.scripted.fail({}); } catch (error) { stack = String(error.stack); }
             const local = new Error("x").stack;
             return { stack, local: String(local) };`,
      check: (response) => {
        const text = JSON.stringify(response);
        return /node_modules|\/work\/|node:internal|isolated-vm/.test(text) ? "host paths leaked" : undefined;
      },
    },
    {
      name: "stack of a runtime error shows no host frames",
      category: "host reach",
      code: "function f() { return null.x; }\nf();",
      check: (response) => {
        if (response.error?.kind !== "runtime") return "expected a runtime error";
        return /node_modules|\/work\/|node:internal/.test(response.error.stack ?? "")
          ? "host frames in stack"
          : undefined;
      },
    },
    {
      name: "proxy with traps as tool arguments",
      category: "bridge abuse",
      code: `const args = new Proxy({}, { get: (t, k) => k === "toJSON" ? () => ({ message: "from proxy" }) : undefined, ownKeys: () => { throw new Error("trap"); } });
             try { return await tools.scripted.echo(args); } catch (error) { return error.name + ": " + error.message; }`,
      check: boundedOrError,
    },
    {
      name: "getter on arguments that throws",
      category: "bridge abuse",
      code: `const args = { get message() { throw new Error("getter bomb"); } };
             try { await tools.scripted.echo(args); return "no error"; } catch (error) { return error.message; }`,
      check: (response) =>
        String(response.result).includes("getter bomb") || response.error ? undefined : "getter ran silently",
    },
    {
      name: "thenable arguments",
      category: "bridge abuse",
      code: `const args = { message: "x", then(resolve) { resolve("hijacked"); } };
             try { return await tools.scripted.echo(args); } catch (error) { return error.name; }`,
      check: boundedOrError,
    },
    {
      name: "thenable as the returned value",
      category: "output abuse",
      code: `return { then(resolve) { resolve({ evil: typeof process }); } };`,
      check: (response) =>
        JSON.stringify(response.result ?? null).includes('"object"')
          ? "thenable resolved with host data"
          : undefined,
    },
    {
      name: "prototype pollution through a tool result",
      category: "bridge abuse",
      code: `const polluted = await tools.scripted.echo({ message: '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}' });
             return { own: Object.keys(polluted), viaObject: ({}).polluted ?? "clean" };`,
      check: (response) => {
        const value = response.result as { viaObject?: string } | undefined;
        if (value?.viaObject !== "clean") return "Object.prototype polluted in the sandbox";
        return (Object.prototype as Record<string, unknown>).polluted
          ? "host Object.prototype polluted"
          : undefined;
      },
    },
    probes(
      "dynamic imports of node builtins",
      "filesystem/network",
      `const tryImport = async (spec) => { try { await import(spec); return "object"; } catch { return "threw"; } };
       return { fs: await tryImport("node:fs"), cp: await tryImport("child_process"), file: await tryImport("file://${canary.file}") }`,
    ),
    probes(
      "network objects",
      "filesystem/network",
      "return { fetch: probe(() => fetch), xhr: probe(() => XMLHttpRequest), ws: probe(() => WebSocket), deno: probe(() => Deno) }",
    ),
    {
      name: "fetch the canary server",
      category: "filesystem/network",
      code: `try { const r = await fetch(${JSON.stringify(canary.url)}); return await r.text(); } catch (error) { return "blocked: " + error.name; }`,
      check: (response) =>
        String(response.result ?? "").startsWith("blocked") || response.error ? undefined : "fetched",
    },
    {
      name: "import from the canary server",
      category: "filesystem/network",
      code: `try { await import(${JSON.stringify(canary.url)}); return "imported"; } catch (error) { return "blocked"; }`,
      check: (response) => (response.result === "imported" ? "imported over the network" : undefined),
    },
    probes(
      "environment objects",
      "environment",
      "return { env: probe(() => process.env), denoEnv: probe(() => Deno.env.toObject()), bun: probe(() => Bun) }",
    ),
    {
      name: "globalThis lists nothing of the host",
      category: "environment",
      code: "return Object.getOwnPropertyNames(globalThis).filter((k) => /^(process|require|Buffer|setImmediate|setTimeout|global|module|exports|fetch|Deno|Bun)$/.test(k))",
      check: (response) => {
        const found = response.result as string[];
        return found?.length ? `host globals: ${found.join(", ")}` : undefined;
      },
    },
    {
      name: "synchronous infinite loop",
      category: "exhaustion",
      code: "while (true) {}",
      check: endsInError(["timeout"]),
    },
    {
      name: "infinite loop after an await",
      category: "exhaustion",
      code: "await tools.scripted.echo({ message: 'x' });\nfor (;;) {}",
      check: endsInError(["timeout"]),
    },
    {
      name: "microtask storm",
      category: "exhaustion",
      code: "const storm = () => Promise.resolve().then(storm); storm(); await new Promise(() => {});",
      check: endsInError(["timeout", "memory"]),
    },
    {
      name: "promise that never settles",
      category: "exhaustion",
      code: "await new Promise(() => {});",
      check: endsInError(["timeout"]),
    },
    {
      name: "memory bomb: growing arrays",
      category: "exhaustion",
      code: "const hog = []; for (;;) hog.push(new Array(1e6).fill(1.5));",
      check: endsInError(["memory", "timeout"]),
    },
    {
      name: "memory bomb: string doubling",
      category: "exhaustion",
      code: "let s = 'x'; for (;;) s += s;",
      check: endsInError(["memory", "runtime", "timeout"]),
    },
    {
      name: "memory bomb: ArrayBuffers",
      category: "exhaustion",
      code: "const keep = []; for (;;) keep.push(new ArrayBuffer(64 * 1024 * 1024));",
      check: endsInError(["memory", "runtime", "timeout"]),
    },
    {
      name: "SharedArrayBuffer",
      category: "exhaustion",
      code: "const keep = []; for (let i = 0; i < 64; i++) keep.push(new SharedArrayBuffer(64 * 1024 * 1024)); return keep.length;",
      check: (response) => (response.result === 64 ? "allocated 4 GiB of shared memory" : undefined),
    },
    {
      name: "WebAssembly memory",
      category: "exhaustion",
      code: "const keep = []; for (let i = 0; i < 64; i++) keep.push(new WebAssembly.Memory({ initial: 1024, maximum: 65536 })); return keep.length;",
      check: (response) => (response.result === 64 ? "allocated 4 GiB of wasm memory" : undefined),
    },
    {
      name: "deep recursion",
      category: "exhaustion",
      code: "const down = (n) => down(n + 1) + 1; try { down(0); } catch (error) { return error.name; }",
      check: (response) =>
        response.result === "RangeError" || response.error ? undefined : "no stack overflow error",
    },
    {
      name: "huge logs",
      category: "exhaustion",
      code: "const line = 'y'.repeat(10000); for (let i = 0; i < 100000; i++) console.log(line); return 'done';",
      check: (response) => {
        const bytes = response.logs.reduce((sum, entry) => sum + entry.message.length, 0);
        return bytes > 1024 * 1024 ? `logs not capped: ${bytes}` : undefined;
      },
    },
    {
      name: "a million tool calls",
      category: "exhaustion",
      code: "const calls = []; for (let i = 0; i < 1e6; i++) calls.push(tools.scripted.echo({ message: 'x' }).catch((e) => e.name)); const out = await Promise.all(calls); return out.filter((x) => x === 'LimitError').length;",
      check: (response) => {
        if (response.error) return undefined;
        return response.toolCalls > 1000 ? `made ${response.toolCalls} calls` : undefined;
      },
    },
    {
      name: "huge tool arguments",
      category: "bridge abuse",
      code: "try { await tools.scripted.echo({ message: 'z'.repeat(40 * 1024 * 1024) }); return 'sent'; } catch (error) { return error.name; }",
      check: boundedOrError,
    },
    {
      name: "catastrophic regular expression",
      category: "exhaustion",
      code: "return /^(a+)+$/.test('a'.repeat(40) + 'b');",
      check: endsInError(["timeout"]),
    },
    {
      name: "non-JSON arguments: function, BigInt, symbol",
      category: "bridge abuse",
      code: `const out = [];
             for (const bad of [{ f() {} }, { n: 10n }, { s: Symbol("x") }]) {
               try { await tools.scripted.echo({ message: "x", ...bad }); out.push("sent"); } catch (error) { out.push(error.name); }
             }
             return out;`,
      check: (response) => {
        const out = response.result as string[] | undefined;
        return out?.includes("sent") ? `a non-JSON value crossed: ${out}` : undefined;
      },
    },
    {
      name: "cyclic arguments",
      category: "bridge abuse",
      code: "const a = { message: 'x' }; a.self = a; try { await tools.scripted.echo(a); return 'sent'; } catch (error) { return error.name; }",
      check: (response) => (response.result === "sent" ? "cyclic value crossed" : undefined),
    },
    {
      name: "__proto__, constructor and ../ as names",
      category: "bridge abuse",
      code: `const tryCall = async (f) => { try { await f(); return "called"; } catch (error) { return error.name; } };
             return [
               await tryCall(() => tools["__proto__"]["x"]({})),
               await tryCall(() => tools.constructor({})),
               await tryCall(() => tools["../etc"].passwd({})),
               await tryCall(() => tools.scripted["__proto__"]({})),
               await tryCall(() => tools.scripted["constructor"]({})),
               await tryCall(() => tools.scripted["../../crash"]({})),
             ];`,
      check: (response) => {
        const out = response.result as string[] | undefined;
        return out?.includes("called") ? `a name reached the upstream: ${out}` : undefined;
      },
    },
    {
      name: "cyclic return value",
      category: "output abuse",
      code: "const a = {}; a.a = a; return a;",
      check: endsInError(["runtime"]),
    },
    {
      name: "huge return value",
      category: "output abuse",
      code: "return 'w'.repeat(30 * 1024 * 1024);",
      check: boundedOrError,
    },
    {
      name: "getter that throws in the returned value",
      category: "output abuse",
      code: "return { get boom() { throw new Error('getter'); } };",
      check: (response) => (response.error || response.result !== undefined ? undefined : "no outcome"),
    },
    {
      name: "toJSON that throws in the returned value",
      category: "output abuse",
      code: "return { toJSON() { throw new Error('toJSON bomb'); } };",
      check: endsInError(["runtime"]),
    },
    {
      name: "BigInt and functions returned",
      category: "output abuse",
      code: "return { n: 10n, f() {} };",
      check: (response) => (response.error || typeof response.result === "object" ? undefined : "unexpected"),
    },
    {
      name: "timers that outlive the run",
      category: "exhaustion",
      code: "return { timeout: typeof setTimeout, interval: typeof setInterval, immediate: typeof setImmediate };",
      check: (response) => {
        const value = response.result as Record<string, string> | undefined;
        return value && Object.values(value).some((type) => type === "function")
          ? `timers exist: ${JSON.stringify(value)}`
          : undefined;
      },
    },
    {
      name: "12 MiB thrown Error",
      category: "output abuse",
      code: `throw new Error("e".repeat(${TWELVE_MIB}));`,
      check: boundedError,
    },
    {
      name: "12 MiB thrown string",
      category: "output abuse",
      code: `throw "s".repeat(${TWELVE_MIB});`,
      check: boundedError,
    },
    {
      name: "12 MiB thrown plain object",
      category: "output abuse",
      code: `throw { name: "Big", message: "o".repeat(${TWELVE_MIB}) };`,
      check: boundedError,
    },
    {
      name: "12 MiB error name, stack and data",
      category: "output abuse",
      code: `const error = new Error("x"); error.name = "N".repeat(${TWELVE_MIB}); error.stack = "S".repeat(${TWELVE_MIB}); error.data = "d".repeat(${TWELVE_MIB}); throw error;`,
      check: boundedError,
    },
    {
      name: "100 MB console.log",
      category: "output abuse",
      code: "console.log('l'.repeat(100 * 1024 * 1024)); return 'done';",
      check: boundedOrErrorOf(["memory", "runtime", "timeout"]),
    },
    {
      name: "12 MiB returned inside an object",
      category: "output abuse",
      code: `return { nested: { text: "r".repeat(${TWELVE_MIB}) } };`,
      check: boundedOrErrorOf(["runtime", "memory"]),
    },
    {
      name: "two million numbers returned",
      category: "output abuse",
      code: "return Array.from({ length: 2e6 }, (_, i) => i);",
      check: boundedOrErrorOf(["runtime", "memory"]),
    },
    {
      name: "deeply nested return value",
      category: "output abuse",
      code: "let value = {}; for (let i = 0; i < 1e5; i++) value = { value }; return value;",
      check: boundedOrErrorOf(["runtime", "memory", "timeout"]),
    },
    {
      name: "deeply nested tool arguments",
      category: "bridge abuse",
      code: "let value = {}; for (let i = 0; i < 1e5; i++) value = { value }; try { await tools.scripted.echo({ message: 'x', value }); return 'sent'; } catch (error) { return error.name; }",
      check: boundedOrErrorOf(["runtime", "memory", "validation", "limit", "timeout"]),
    },
    {
      name: "infinite loop in toJSON of the returned value",
      category: "exhaustion",
      code: "return { toJSON() { for (;;) {} } };",
      check: endsInError(["timeout"]),
    },
    {
      name: "infinite loop in a getter of tool arguments",
      category: "exhaustion",
      code: "await tools.scripted.echo({ get message() { for (;;) {} } });",
      check: endsInError(["timeout"]),
    },
    {
      name: "memory blow-up: a Map of strings",
      category: "exhaustion",
      code: "const map = new Map(); for (let i = 0; ; i++) map.set(i, 'k'.repeat(1024) + i);",
      check: endsInError(["memory", "timeout"]),
    },
    {
      // isolated-vm#527: V8 gives up on the isolate (fatal OOM) instead of stopping the script.
      name: "fatal out-of-memory V8 cannot recover from: a huge JSON string and a hot loop over it",
      category: "exhaustion",
      code: "const s = JSON.stringify('w'.repeat(30 * 1024 * 1024)); let n = 0; for (let i = 0; i < s.length; i++) n += s.charCodeAt(i); return n;",
      serveOnly: true,
      check: (response) =>
        response.error
          ? endsInError(["memory", "timeout", "runtime"])(response)
          : typeof response.result === "number"
            ? undefined
            : `unexpected result ${JSON.stringify(response.result)?.slice(0, 100)}`,
    },
    {
      name: "deep recursion through async functions",
      category: "exhaustion",
      code: "const down = async (n) => (await down(n + 1)) + 1; try { await down(0); } catch (error) { return error.name; }",
      check: (response) =>
        response.result === "RangeError" || response.error
          ? undefined
          : `unexpected ${JSON.stringify(response.result)}`,
    },
    probes(
      "reading env, process and require every way",
      "environment",
      `return {
        env: probe(() => process.env.TOOLSCRIPT_CANARY_SECRET),
        deno: probe(() => Deno.env.get("TOOLSCRIPT_CANARY_SECRET")),
        global: probe(() => globalThis.TOOLSCRIPT_CANARY_SECRET),
        require: probe(() => require("node:process").env),
        moduleRequire: probe(() => module.require("fs")),
        importProcess: probe(() => import("node:process").then((m) => m.env.TOOLSCRIPT_CANARY_SECRET)),
        fnProcess: probe(() => Function("return globalThis.process && process.env")()),
        tools: probe(() => tools.constructor.constructor("return process.env")()),
      }`,
    ),
    {
      name: "fetch to loopback, every spelling",
      category: "filesystem/network",
      code: `const port = ${JSON.stringify(canary.url)}.split(":")[2].split("/")[0];
             const out = [];
             for (const host of ["127.0.0.1", "localhost", "[::1]", "0.0.0.0", "127.1", "2130706433"]) {
               try { const r = await fetch("http://" + host + ":" + port + "/"); out.push(await r.text()); } catch (error) { out.push("blocked"); }
             }
             try { new WebSocket("ws://127.0.0.1:" + port + "/"); out.push("ws opened"); } catch { out.push("blocked"); }
             try { navigator.sendBeacon("http://127.0.0.1:" + port + "/"); out.push("beacon"); } catch { out.push("blocked"); }
             return out;`,
      check: (response) => {
        const out = response.result as string[] | undefined;
        return out?.some((entry) => entry !== "blocked")
          ? `reached loopback: ${JSON.stringify(out)}`
          : undefined;
      },
    },
    {
      name: "prototype pollution of host objects",
      category: "host reach",
      code: `const tried = [];
             const attempt = (label, f) => { try { f(); tried.push(label); } catch { tried.push(label + " threw"); } };
             attempt("args", () => tools.scripted.echo(JSON.parse('{"message":"x","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}')).catch(() => {}));
             attempt("tools proto", () => { Object.getPrototypeOf(tools).polluted = "yes"; });
             attempt("server proto", () => { Object.getPrototypeOf(tools.scripted).polluted = "yes"; });
             attempt("function proto", () => { Object.getPrototypeOf(tools.scripted.echo).polluted = "yes"; });
             attempt("console proto", () => { Object.getPrototypeOf(console).polluted = "yes"; console.log.__proto__.polluted = "yes"; });
             attempt("error proto", () => { ToolError.prototype.polluted = "yes"; });
             await new Promise((resolve) => resolve());
             const echoed = await tools.scripted.echo({ message: "after" });
             return { echoed: JSON.stringify(echoed), tried: tried.length };`,
      check: (response) => {
        if (
          (Object.prototype as Record<string, unknown>).polluted ||
          (Function.prototype as unknown as Record<string, unknown>).polluted
        )
          return "host prototypes polluted";
        const value = response.result as { echoed?: string } | undefined;
        return value?.echoed?.includes("polluted") ? "pollution reached a tool result" : undefined;
      },
    },
    {
      name: "9 MiB program on one line with a syntax error at its end",
      category: "output abuse",
      code: `const text = "${"q".repeat(9 * 1024 * 1024)}" +;`,
      check: boundedError,
    },
    {
      name: "9 MiB program returning its own string literal",
      category: "output abuse",
      code: `return "${"p".repeat(9 * 1024 * 1024)}";`,
      check: boundedOrErrorOf(["runtime", "memory"]),
    },
    {
      name: "state left for the next execution",
      category: "host reach",
      code: "globalThis.leftover = 'from a previous run'; Object.prototype.leak = 1; Array.prototype.push = () => 0; return 1;",
      check: () => undefined, // checked by the next-execution probe of the suite
    },
  ];
}
