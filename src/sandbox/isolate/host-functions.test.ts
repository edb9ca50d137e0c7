import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FakeBridge, hostError } from "../fake-bridge.ts";
import { createHostFunctions } from "./host-functions.ts";
import { LogCollector } from "./log-collector.ts";

function setup() {
  const bridge = new FakeBridge({
    "my-server/get-sum": (args) => (args as { a: number }).a + 1,
    "my-server/fail": () => {
      throw hostError("ToolError", "bad", "tool.bad", { why: [1] });
    },
    "my-server/cyclic": () => {
      const value: Record<string, unknown> = {};
      value.self = value;
      return value;
    },
  });
  const controller = new AbortController();
  const logs = new LogCollector(100);
  const host = createHostFunctions({ tools: bridge.namespace(), bridge, logs, signal: controller.signal });
  const call = host.call.deref();
  return { bridge, controller, logs, host, call };
}

describe("createHostFunctions", () => {
  it("parses JSON arguments and answers with JSON", async () => {
    const { call, bridge } = setup();
    assert.deepEqual(await call("my-server", "get-sum", '{"a":1}'), { ok: true, json: "2" });
    assert.deepEqual(bridge.calls[0]?.args, { a: 1 });
  });

  it("turns host errors into data, never a rejection", async () => {
    const { call } = setup();
    assert.deepEqual(await call("my-server", "fail", "{}"), {
      ok: false,
      error: { name: "ToolError", message: "bad", code: "tool.bad", dataJson: '{"why":[1]}' },
    });
    const cyclic = await call("my-server", "cyclic", "{}");
    assert.equal(cyclic.ok, false);
    const badJson = await call("my-server", "get-sum", "{nope");
    assert.equal(badJson.ok, false);
  });

  it("refuses tools outside the run's namespace and malformed input", async () => {
    const { call, bridge } = setup();
    const outside = await call("other", "tool", "{}");
    assert.equal(outside.ok, false);
    assert.equal((await call(1, {}, "{}")).ok, false);
    assert.equal((await call("my-server", "get-sum", { a: 1 })).ok, false);
    assert.equal(bridge.calls.length, 0);
  });

  it("refuses calls and logs once the run has ended", async () => {
    const { call, bridge, controller, logs } = setup();
    controller.abort();
    const reply = await call("my-server", "get-sum", '{"a":1}');
    assert.deepEqual(reply.ok, false);
    assert.match(reply.ok ? "" : reply.error.message, /ended/);
    assert.equal(bridge.calls.length, 0);
    assert.equal(logs.entries.length, 0);
  });

  it("offers search only when the bridge has it", () => {
    const { host } = setup();
    assert.equal(host.search, undefined);
  });
});
