import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { reply, ScriptedModel, text, toolUse, untilAborted } from "../../test/helpers/scripted-model.ts";
import { SCRIPTED_JS, tempDir } from "../../test/helpers/servers.ts";
import { Gateway } from "../gateway/gateway.ts";
import { createAgent } from "./create-agent.ts";

// Ctrl-C: the signal ends the run, and an execute_code in flight really stops in the gateway.

const ENDLESS = "for (;;) await tools.scripted.slow({ ms: 50 });";

/** Polls `ready` (at most 20 s) and aborts when it holds. */
async function abortWhen(ready: () => Promise<boolean>, controller: AbortController): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await ready()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  controller.abort();
}

describe("agent cancellation", () => {
  const dir = tempDir("agent-cancel");
  const gateway = new Gateway({
    config: {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      // Far beyond the test: only the cancellation can end the program.
      toolscript: { storage: { dir: dir.path }, sandbox: { timeoutMs: 60_000 } },
    },
  });
  const slowCalls = async () => {
    const response = await gateway.execute(
      "return (await tools.scripted.call_log({})).filter((n) => n === 'slow').length;",
    );
    assert.equal(response.error, undefined, JSON.stringify(response.error));
    return response.result as number;
  };

  before(async () => {
    await gateway.start();
  });
  after(async () => {
    await gateway.close();
    dir.remove();
  });

  it("stops the program in flight and leaves the gateway usable", async () => {
    const controller = new AbortController();
    let calledAfterAbort = false;
    const model = new ScriptedModel((_request, turn) => {
      if (turn > 1) calledAfterAbort = true;
      return reply([toolUse("execute_code", { code: ENDLESS })]);
    });
    const agent = createAgent({
      gateway,
      model,
      onEvent: (event) => {
        // Once the program has made a few slow calls (the first run also loads the type checker).
        if (event.type === "tool_started") void abortWhen(async () => (await slowCalls()) >= 3, controller);
      },
    });
    try {
      const started = performance.now();
      const result = await agent.run("loop forever", { signal: controller.signal });
      assert.equal(result.stopped, "cancelled");
      assert.equal(result.answer, "(cancelled)");
      assert.equal(result.turns, 1);
      assert.equal(calledAfterAbort, false);
      assert.ok(
        performance.now() - started < 30_000,
        "the run ends at the abort, not at the sandbox timeout",
      );

      const before = await slowCalls();
      assert.ok(before >= 3, `the program was running (${before} slow calls)`);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(await slowCalls(), before, "no slow call after the cancellation: the program stopped");

      // The same agent runs again on the same connection.
      const again = createAgent({ gateway, model: new ScriptedModel(() => reply([text("fine")])) });
      assert.equal((await again.run("still there?")).answer, "fine");
      await again.close();
    } finally {
      await agent.close();
    }
  });

  it("aborts a model request in flight", async () => {
    const controller = new AbortController();
    const model = new ScriptedModel((_request, _turn, options) => {
      setTimeout(() => controller.abort(), 50);
      return untilAborted(options.signal);
    });
    const agent = createAgent({ gateway, model });
    try {
      const result = await agent.run("think forever", { signal: controller.signal });
      assert.equal(result.stopped, "cancelled");
      assert.equal(result.turns, 1);
      assert.equal(result.usage.requests, 0);
      assert.equal(result.error, undefined);
    } finally {
      await agent.close();
    }
  });

  it("does not start when the signal is already aborted", async () => {
    const model = new ScriptedModel(() => reply([text("never")]));
    const agent = createAgent({ gateway, model });
    try {
      const result = await agent.run("no", { signal: AbortSignal.abort() });
      assert.equal(result.stopped, "cancelled");
      assert.equal(result.turns, 0);
      assert.equal(model.requests.length, 0);
    } finally {
      await agent.close();
    }
  });
});
