import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioTransport2 } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioTransport1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serveStdioFolder } from "./helpers/serve-stdio.ts";
import { EVERYTHING_JS } from "./helpers/servers.ts";

// Progress of the tool calls a program makes, forwarded as progress of its execute_code call:
// `toolscript serve` on stdio with server-everything, whose long-running tool reports each step.

interface Seen {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** 4 steps of 400 ms: each comes well after the 200 ms coalescing window of the one before. */
const TYPESCRIPT =
  "await tools.everything.trigger_long_running_operation({ duration: 1.6, steps: 4 }); return await tools.everything.get_sum({ a: 1, b: 2 })";
const PYTHON =
  "await tools.everything.trigger_long_running_operation(duration=1.6, steps=4)\nawait tools.everything.get_sum(a=1, b=2)";

/** The forwarded notifications: increasing values, the call and the server's own step in the message. */
function assertForwarded(seen: readonly Seen[]): void {
  const steps = seen.filter((entry) =>
    /^everything\.trigger_long_running_operation: \d\/4$/.test(entry.message ?? ""),
  );
  // The last step's notification races the tool's answer (the SDK drops progress once a call is answered).
  assert.ok(steps.length >= 2, JSON.stringify(seen));
  assert.match(steps[0]?.message ?? "", /: 1\/4$/);
  for (let index = 1; index < seen.length; index++) {
    assert.ok((seen[index]?.progress ?? 0) > (seen[index - 1]?.progress ?? 0), JSON.stringify(seen));
  }
  // The execution's count has no total: how many calls a program makes is not known ahead.
  assert.ok(
    seen.every((entry) => entry.total === undefined),
    JSON.stringify(seen),
  );
}

describe("toolscript serve (stdio): progress of a program's tool calls", () => {
  const { dir, params } = serveStdioFolder("e2e-progress", {
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] } },
    toolscript: { sandbox: { runtime: "isolate", timeoutMs: 20_000, memoryMb: 64, python: { pool: 1 } } },
  });
  after(() => dir.remove());

  test("a stock SDK 1.x client gets it with its token, for TypeScript and Python programs", async () => {
    const client = new Client1({ name: "sdk1-progress", version: "1" });
    await client.connect(new StdioTransport1(params()));
    try {
      for (const [language, code] of [
        ["typescript", TYPESCRIPT],
        ["python", PYTHON],
      ] as const) {
        const seen: Seen[] = [];
        const answer = await client.callTool(
          { name: "execute_code", arguments: { code, language } },
          undefined,
          // The first Python program builds its interpreter snapshot: seconds.
          { timeout: 180_000, onprogress: (progress) => seen.push(progress) },
        );
        assert.notEqual(answer.isError, true, JSON.stringify(answer.content));
        assertForwarded(seen);
      }
      // No token, no progress: the call still works.
      const plain = await client.callTool({ name: "execute_code", arguments: { code: "return 1" } });
      assert.equal((plain.structuredContent as { result?: unknown }).result, 1);
    } finally {
      await client.close();
    }
  });

  test("a 2.x client negotiating 2026-07-28 gets it too", async () => {
    const client = new Client2(
      { name: "sdk2-progress", version: "1" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new StdioTransport2(params()), { timeout: 60_000 });
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      const seen: Seen[] = [];
      const answer = await client.callTool(
        { name: "execute_code", arguments: { code: TYPESCRIPT } },
        { timeout: 60_000, onprogress: (progress: Seen) => seen.push(progress) },
      );
      assert.match(String((answer.structuredContent as { result?: unknown }).result), /sum of 1 and 2 is 3/);
      assertForwarded(seen);
      // A call quiet for 2.5 s: the execution still says it runs, how long, and how many calls it made.
      const quiet: Seen[] = [];
      await client.callTool(
        {
          name: "execute_code",
          arguments: {
            code: "await tools.everything.get_sum({ a: 1, b: 1 }); await tools.everything.trigger_long_running_operation({ duration: 2.5, steps: 1 }); return 1",
          },
        },
        { timeout: 60_000, onprogress: (progress: Seen) => quiet.push(progress) },
      );
      const beats = quiet.filter((entry) =>
        /^running \d+\.\d s, 1 tool call made$/.test(entry.message ?? ""),
      );
      assert.ok(beats.length >= 1, JSON.stringify(quiet));
    } finally {
      await client.close();
    }
  });
});
