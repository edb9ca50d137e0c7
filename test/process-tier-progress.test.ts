import assert from "node:assert/strict";
import { test } from "node:test";
import type { CallProgress } from "../src/bridge/progress.ts";
import { Gateway } from "../src/gateway/gateway.ts";
import { EVERYTHING_JS, tempDir } from "./helpers/servers.ts";

test("sandbox.runtime \"process\": a program's calls report the server's progress and each finished call", async () => {
  const dir = tempDir("process-progress");
  const gateway = new Gateway({
    config: {
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] } },
      toolscript: { sandbox: { runtime: "process", poolSize: 1 }, storage: { dir: dir.path } },
    },
  });
  try {
    await gateway.start();
    const seen: CallProgress[] = [];
    const response = await gateway.execute({
      code: "await tools.everything.trigger_long_running_operation({ duration: 0.6, steps: 3 }); await resources.list('everything'); return 'ok'",
      onProgress: (event) => seen.push(event),
    });
    assert.equal(response.error, undefined, JSON.stringify(response.error));
    const steps = seen.flatMap((event) => (event.kind === "upstream" ? [event.progress.progress] : []));
    // The last step's notification may race the call's answer.
    assert.deepEqual(steps.slice(0, 2), [1, 2]);
    const done = seen.flatMap((event) => (event.kind === "done" ? [[event.tool.tool, event.calls]] : []));
    assert.deepEqual(done, [
      ["trigger-long-running-operation", 1],
      ["resources/list", 2],
    ]);
    // Without a listener the server is not asked for progress, and nothing breaks.
    assert.equal((await gateway.execute("return 1")).result, 1);
  } finally {
    await gateway.close();
    dir.remove();
  }
});
