import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import ivm from "isolated-vm";
import { compileProgram } from "../../compile/compile.ts";
import { FakeBridge, hostError } from "../fake-bridge.ts";
import type { ExecutionResult } from "../types.ts";
import { REMOVED_GLOBALS, SANDBOX_GLOBALS } from "./prelude.ts";
import { IsolateRuntime } from "./runtime.ts";

const runtime = new IsolateRuntime({ poolSize: 1, prewarmMemoryMb: 64 });
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

async function run(source: string): Promise<ExecutionResult> {
  const compiled = await compileProgram(source, "typescript");
  if (!compiled.ok) throw new Error(`compile failed: ${compiled.error.message}`);
  return runtime.run({
    code: compiled.js,
    sourceMap: compiled.sourceMap,
    tools: bridge.namespace(),
    bridge,
    timeoutMs: 5_000,
    memoryMb: 64,
    maxLogBytes: 10_000,
  });
}

describe("IsolateRuntime: no way out", () => {
  it("has no ambient authority in scope", async () => {
    const result = await run(
      "['process', 'require', 'module', 'fetch', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'Buffer', 'WebAssembly', 'SharedArrayBuffer', 'Atomics'].map((name) => typeof (globalThis as any)[name])",
    );
    assert.deepEqual(result.result, Array(12).fill("undefined"));
  });

  it("fails cleanly on dynamic import", async () => {
    const caught = await run(
      "try { await import('node:fs'); return 'imported'; } catch (e) { return 'blocked'; }",
    );
    assert.equal(caught.result, "blocked");
    const uncaught = await run("const fs = await import('node:fs');\nfs");
    assert.equal(uncaught.error?.kind, "runtime");
  });

  it("finds no host through constructor chains", async () => {
    const result = await run(
      [
        "const probes = [];",
        "const probe = (make: () => unknown) => { try { probes.push(String(make())); } catch (e) { probes.push('threw ' + e.name); } };",
        "probe(() => this.constructor.constructor('return typeof process')());",
        "probe(() => this.constructor.constructor('return process')());",
        "probe(() => Function('return typeof require')());",
        "probe(() => eval('typeof process'));",
        "probe(() => (tools as any).constructor.constructor('return process')());",
        "probe(() => tools.srv.ok.constructor.constructor('return typeof process')());",
        "probe(() => (console.log as any).constructor('return typeof process')());",
        "probe(() => (arguments as any).callee.caller);",
        "probes",
      ].join("\n"),
    );
    assert.deepEqual(result.result, [
      "undefined",
      "threw ReferenceError",
      "undefined",
      "undefined",
      "threw TypeError",
      "undefined",
      "undefined",
      "threw TypeError",
    ]);
  });

  it("shows only sandbox objects along the prototypes of a tool function", async () => {
    const result = await run(
      [
        "const chain = [];",
        "for (let p = Object.getPrototypeOf(tools.srv.ok); p !== null; p = Object.getPrototypeOf(p)) {",
        "  chain.push([p.constructor.name, p.constructor.constructor('return typeof process')()]);",
        "}",
        "[chain, Object.getPrototypeOf(tools.srv.ok) === Object.getPrototypeOf(async () => {})]",
      ].join("\n"),
    );
    assert.deepEqual(result.result, [
      [
        ["AsyncFunction", "undefined"],
        ["Function", "undefined"],
        ["Object", "undefined"],
      ],
      true,
    ]);
  });

  it("hands out errors from host calls that are sandbox objects without host stacks", async () => {
    const result = await run(
      [
        "try { await tools.srv.fail({}); } catch (e) {",
        "  const chain = [];",
        "  for (let p = Object.getPrototypeOf(e); p !== null; p = Object.getPrototypeOf(p)) chain.push(p.constructor.name);",
        "  return [chain, e.constructor.constructor('return typeof process')(), String(e.stack), Object.keys(e)];",
        "}",
      ].join("\n"),
    );
    const [chain, processType, stack, keys] = result.result as [string[], string, string, string[]];
    assert.deepEqual(chain, ["ToolError", "Error", "Object"]);
    assert.equal(processType, "undefined");
    assert.match(stack, /^ToolError: host failure/);
    assert.doesNotMatch(stack, /\/work\/|node_modules|file:/);
    assert.deepEqual(keys, ["code", "data"]);
  });

  it("exposes exactly the built-ins and the sandbox globals", async () => {
    const isolate = new ivm.Isolate({ memoryLimit: 16 });
    const context = await isolate.createContext();
    const builtins = (await context.eval("Object.getOwnPropertyNames(globalThis)", {
      copy: true,
    })) as string[];
    isolate.dispose();
    const removed = new Set<string>(REMOVED_GLOBALS);
    const expected = new Set([...builtins.filter((name) => !removed.has(name)), ...SANDBOX_GLOBALS]);
    const result = await run("Object.getOwnPropertyNames(globalThis)");
    assert.deepEqual(new Set(result.result as string[]), expected);
    const symbols = await run("Object.getOwnPropertySymbols(globalThis).length");
    assert.equal(symbols.result, 0);
  });

  it("does not let a failing host error escape into the host", async () => {
    const throwing = new FakeBridge({
      "a/b": () => {
        throw hostError("ToolError", "nope");
      },
    });
    const result = await runtime.run({
      code: "await tools.a.b({})",
      tools: throwing.namespace(),
      bridge: throwing,
      timeoutMs: 1_000,
      memoryMb: 64,
      maxLogBytes: 100,
    });
    assert.equal(result.error?.kind, "tool");
  });
});
