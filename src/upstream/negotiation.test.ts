import assert from "node:assert/strict";
import { test } from "node:test";
import { SCRIPTED_JS, stdioServer } from "../../test/helpers/servers.ts";
import { UpstreamManager } from "./manager.ts";

const FAST = {
  connectTimeoutMs: 8000,
  probeTimeoutMs: 300,
  restart: { maxRetries: 0, initialDelayMs: 100, maxDelayMs: 100 },
};

test("2025-era stdio servers that exit on, or ignore, the server/discover probe still connect", async () => {
  const manager = new UpstreamManager(
    [
      stdioServer("answers", SCRIPTED_JS),
      stdioServer("exits", SCRIPTED_JS, ["--exit-on-probe"]),
      stdioServer("silent", SCRIPTED_JS, ["--ignore-probe"]),
    ],
    FAST,
  );
  try {
    const statuses = await manager.start();
    for (const status of statuses) {
      assert.equal(status.state, "ready", `${status.server}: ${status.error}`);
      assert.match(status.protocolVersion ?? "", /^2025-/, status.server);
      assert.equal(status.restarts, 0, status.server);
    }
    const result = await manager.callTool("exits", "add", { a: 1, b: 2 });
    assert.deepEqual(result.content, [{ type: "text", text: "3" }]);
  } finally {
    await manager.close();
  }
});
