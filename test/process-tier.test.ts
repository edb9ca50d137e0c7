import assert from "node:assert/strict";
import { test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

test('sandbox.runtime "process": the gateway runs code in Deno inside bubblewrap, with tools bridged', async () => {
  const dir = tempDir("process-tier");
  const gateway = new Gateway({
    config: {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: { sandbox: { runtime: "process", poolSize: 1 }, storage: { dir: dir.path } },
    },
  });
  try {
    await gateway.start();
    // Names the sandbox must not have: unknown to the type check too, so it is skipped here.
    const response = await gateway.execute({
      code: "const r = await tools.scripted.add({ a: 20, b: 22 }); return { sum: r.sum, deno: typeof Deno, proc: typeof process }",
      typecheck: false,
    });
    assert.equal(response.error, undefined, JSON.stringify(response.error));
    assert.deepEqual(response.result, { sum: 42, deno: "undefined", proc: "undefined" });
    const spin = await gateway.execute({
      code: "await tools.scripted.echo({ message: 'x' }); for (;;) {}",
      timeoutMs: 500,
    });
    assert.equal(spin.error?.kind, "timeout");
    assert.equal((await gateway.execute("return 1")).result, 1);
  } finally {
    await gateway.close();
    dir.remove();
  }
});
