import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FakeBridge } from "../fake-bridge.ts";
import { ProcessSandboxError } from "./errors.ts";
import { ProcessRuntime } from "./runtime.ts";

async function refusal(options: Parameters<typeof ProcessRuntime.check>[0]): Promise<ProcessSandboxError> {
  try {
    await ProcessRuntime.check(options);
  } catch (error) {
    assert.ok(error instanceof ProcessSandboxError, String(error));
    return error;
  }
  assert.fail("the check passed");
}

describe("ProcessRuntime.check", () => {
  it("finds Deno, bubblewrap (with the libraries Deno loads) and prlimit here", async () => {
    const setup = await ProcessRuntime.check();
    assert.match(setup.deno, /deno$/);
    assert.match(setup.prlimit, /prlimit$/);
    assert.match(setup.bubblewrap?.path ?? "", /bwrap$/);
    const libraries = setup.bubblewrap?.libraries.map((library) => library.path) ?? [];
    assert.ok(
      libraries.some((path) => /libc\.so/.test(path)),
      libraries.join(),
    );
    assert.ok(
      libraries.some((path) => /ld-linux/.test(path)),
      libraries.join(),
    );
  });

  it("names a missing Deno", async () => {
    const error = await refusal({ denoPath: "/nonexistent/deno" });
    assert.equal(error.code, "process.deno_missing");
    assert.match(error.message, /\/nonexistent\/deno/);
  });

  it("names the npm package and how to install it when it is not installed (it is optional)", async () => {
    const error = await refusal({
      resolvePackage: (specifier) => {
        throw Object.assign(new Error(`Cannot find module '${specifier}'`), { code: "MODULE_NOT_FOUND" });
      },
    });
    assert.equal(error.code, "process.deno_missing");
    assert.match(error.message, /npm package "deno"/);
    assert.match(error.message, /`npm install deno`/);
  });

  it("names missing bubblewrap, how to install it, and the explicit way to do without", async () => {
    const error = await refusal({ bubblewrapPath: "/nonexistent/bwrap" });
    assert.equal(error.code, "process.bubblewrap_missing");
    assert.match(error.message, /apt-get install bubblewrap/);
    assert.match(error.message, /bubblewrap: false/);
    assert.match(error.message, /no automatic fallback/i);
  });

  it("names a missing prlimit", async () => {
    const error = await refusal({ prlimitPath: "/nonexistent/prlimit" });
    assert.equal(error.code, "process.prlimit_missing");
  });

  it("refuses when the sandbox does not start, with the reason", async () => {
    const error = await refusal({ bubblewrapPath: "/bin/false" });
    assert.equal(error.code, "process.start_failed");
    assert.match(error.message, /could not start.*exit code 1/);
  });

  it("runs without bubblewrap only when told to, and then still runs code", async () => {
    const runtime = await ProcessRuntime.create({ bubblewrap: false, poolSize: 0 });
    try {
      assert.equal(runtime.setup.bubblewrap, undefined);
      const bridge = new FakeBridge({ "s/add": (args) => (args as { n: number }).n + 1 });
      const result = await runtime.run({
        code: "return [await tools.s.add({ n: 1 }), typeof Deno];",
        tools: bridge.namespace(),
        bridge,
        timeoutMs: 5_000,
        memoryMb: 64,
        maxLogBytes: 100,
      });
      assert.deepEqual(result.result, [2, "undefined"]);
    } finally {
      await runtime.close();
    }
  });
});
