import assert from "node:assert/strict";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import { compileProgram } from "../../compile/compile.ts";
import { FakeBridge } from "../fake-bridge.ts";
import type { ExecutionResult } from "../types.ts";
import { ProcessRuntime } from "./runtime.ts";

const runtime = await ProcessRuntime.create({ poolSize: 1, prewarmMemoryMb: 64 });
after(() => runtime.close());

const bridge = new FakeBridge(
  {
    "srv/ok": () => ({ fine: true }),
    "srv/fail": () => {
      throw Object.assign(new Error("host failure"), { name: "ToolError", code: "x", data: { detail: 1 } });
    },
  },
  async () => [],
);

async function run(source: string, timeoutMs = 5_000): Promise<ExecutionResult> {
  const compiled = await compileProgram(source, "typescript");
  if (!compiled.ok) throw new Error(`compile failed: ${compiled.error.message}`);
  return runtime.run({
    code: compiled.js,
    sourceMap: compiled.sourceMap,
    tools: bridge.namespace(),
    bridge,
    timeoutMs,
    memoryMb: 64,
    maxLogBytes: 10_000,
  });
}

let server: Server;
let url = "";
const SECRET = "canary-secret-7f3a";
before(async () => {
  server = createServer((_request, response) => response.end(SECRET));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  process.env.TOOLSCRIPT_TEST_CANARY = SECRET;
});
after(() => {
  delete process.env.TOOLSCRIPT_TEST_CANARY;
  server.close();
});

describe("ProcessRuntime: no way out", () => {
  it("has none of Deno's authority-bearing globals", async () => {
    const names = [
      "Deno",
      "process",
      "require",
      "module",
      "Buffer",
      "fetch",
      "WebSocket",
      "Worker",
      "setTimeout",
      "setInterval",
      "queueMicrotask",
      "WebAssembly",
      "SharedArrayBuffer",
      "Atomics",
      "navigator",
      "localStorage",
      "prompt",
    ];
    const result = await run(`${JSON.stringify(names)}.map((name) => typeof (globalThis as any)[name])`);
    assert.deepEqual(result.result, Array(names.length).fill("undefined"));
  });

  it("finds no host through constructor chains", async () => {
    const result = await run(
      [
        "const probes = [];",
        "const probe = (make: () => unknown) => { try { probes.push(String(make())); } catch (e) { probes.push('threw ' + e.name); } };",
        "probe(() => this.constructor.constructor('return typeof process')());",
        "probe(() => this.constructor.constructor('return process')());",
        "probe(() => Function('return typeof Deno')());",
        "probe(() => eval('typeof process'));",
        "probe(() => tools.srv.ok.constructor.constructor('return typeof Deno')());",
        "probe(() => (console.log as any).constructor('return typeof process')());",
        "probes",
      ].join("\n"),
    );
    assert.deepEqual(result.result, [
      "undefined",
      "threw ReferenceError",
      "undefined",
      "undefined",
      "undefined",
      "undefined",
    ]);
  });

  it("refuses every kind of import: node builtins, npm, remote, host files", async () => {
    const specifiers = [
      "node:fs",
      "npm:left-pad",
      "https://deno.land/std/version.ts",
      url,
      "file:///etc/passwd",
      "/etc/passwd",
      "/toolscript/bin/deno",
    ];
    const result = await run(
      `const out = [];\nfor (const s of ${JSON.stringify(specifiers)}) {\n  try { await import(s); out.push('imported ' + s); } catch (e) { out.push(e.name); }\n}\nout`,
    );
    const outcomes = result.result as string[];
    assert.equal(outcomes.length, specifiers.length);
    for (const outcome of outcomes) assert.doesNotMatch(outcome, /imported/);
    // The runner is already loaded, so importing it needs no permission; it exports nothing.
    const runner = await run("Object.keys(await import('/toolscript/runner.js'))");
    assert.deepEqual(runner.result, []);
  });

  it("never sees the gateway's environment, files or loopback server", async () => {
    const result = await run(
      [
        "const found = [];",
        "const probe = async (make: () => unknown) => { try { found.push(String(await make())); } catch (e) { found.push(String(e)); } };",
        `await probe(() => import(${JSON.stringify(url)}));`,
        "await probe(() => (globalThis as any).Deno.env.get('TOOLSCRIPT_TEST_CANARY'));",
        "await probe(() => (globalThis as any).process.env.TOOLSCRIPT_TEST_CANARY);",
        "await probe(() => this.constructor.constructor('return process.env')());",
        "found",
      ].join("\n"),
    );
    assert.equal(result.error, undefined);
    assert.doesNotMatch(JSON.stringify(result), new RegExp(SECRET));
  });
});

/** The newest descendant of this process running Deno, seen from the host. */
function sandboxedDeno(): number | undefined {
  const pids = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .sort((a, b) => b - a);
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "deno") continue;
      let ancestor = pid;
      while (ancestor > 1 && ancestor !== process.pid) {
        const stat = readFileSync(`/proc/${ancestor}/stat`, "utf8");
        ancestor = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      }
      if (ancestor === process.pid) return pid;
    } catch {
      // Gone while we looked.
    }
  }
  return undefined;
}

describe("ProcessRuntime: the bubblewrap wall, seen from the host", () => {
  it("runs Deno as nobody, with no capabilities, no new privileges, in its own namespaces", async () => {
    const own = await ProcessRuntime.create({ poolSize: 0 });
    try {
      const running = own.run({
        code: "while (true) {}",
        tools: {},
        bridge,
        timeoutMs: 1_500,
        memoryMb: 64,
        maxLogBytes: 100,
      });
      await new Promise((resolve) => setTimeout(resolve, 600));
      const pid = sandboxedDeno();
      assert.ok(pid !== undefined, "found the sandboxed Deno");
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      assert.match(status, /^CapEff:\s+0+$/m);
      assert.match(status, /^CapPrm:\s+0+$/m);
      assert.match(status, /^CapBnd:\s+0+$/m);
      assert.match(status, /^NoNewPrivs:\s+1$/m);
      assert.match(readFileSync(`/proc/${pid}/uid_map`, "utf8"), /^\s*65534\s+\d+\s+1$/m);
      assert.match(readFileSync(`/proc/${pid}/gid_map`, "utf8"), /^\s*65534\s+\d+\s+1$/m);
      for (const namespace of ["net", "mnt", "pid", "user", "ipc", "uts"]) {
        assert.notEqual(
          readlinkSync(`/proc/${pid}/ns/${namespace}`),
          readlinkSync(`/proc/self/ns/${namespace}`),
          `${namespace} namespace is its own`,
        );
      }
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
      assert.deepEqual(environ.sort(), [
        "DENO_DIR=/tmp/deno",
        "DENO_NO_UPDATE_CHECK=1",
        "NO_COLOR=1",
        "PWD=/tmp",
      ]);
      assert.equal((await running).error?.kind, "timeout");
    } finally {
      await own.close();
    }
  });
});
