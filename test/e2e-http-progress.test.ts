import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  Client as Client2,
  StreamableHTTPClientTransport as HttpTransport2,
} from "@modelcontextprotocol/client";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransport1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Gateway } from "../src/gateway/gateway.ts";
import { type RunningHttpServer, serveHttp } from "../src/server/http/http-server.ts";
import { EVERYTHING_JS } from "./helpers/servers.ts";

// execute_code progress over HTTP: on the request's own stream in a 2025-era session
// (SDK 1.x) and in the stateless 2026-07-28 era (SDK 2.x).

interface Seen {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

const CODE =
  "await tools.everything.trigger_long_running_operation({ duration: 1.2, steps: 3 }); return 'done'";

function assertSteps(seen: readonly Seen[]): void {
  const steps = seen.filter((entry) =>
    /^everything\.trigger_long_running_operation: \d\/3$/.test(entry.message ?? ""),
  );
  // The last step's notification may race the tool's answer.
  assert.ok(steps.length >= 2, JSON.stringify(seen));
  for (let index = 1; index < seen.length; index++) {
    assert.ok((seen[index]?.progress ?? 0) > (seen[index - 1]?.progress ?? 0), JSON.stringify(seen));
  }
}

describe("HTTP front end: execute_code progress in both eras", () => {
  let gateway: Gateway;
  let running: RunningHttpServer;

  before(async () => {
    gateway = new Gateway({
      config: {
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] } },
        toolscript: { sandbox: { timeoutMs: 10_000, memoryMb: 64 } },
      },
    });
    await gateway.start();
    running = await serveHttp(gateway, { host: "127.0.0.1", port: 0, allowUnauthenticatedLoopback: true });
  });
  after(async () => {
    await running.close();
    await gateway.close();
  });

  test("a stock 1.x client over a session", async () => {
    const client = new Client1({ name: "sdk1-http-progress", version: "1" });
    await client.connect(new HttpTransport1(new URL(running.url)));
    try {
      const seen: Seen[] = [];
      const answer = await client.callTool({ name: "execute_code", arguments: { code: CODE } }, undefined, {
        timeout: 60_000,
        onprogress: (progress) => seen.push(progress),
      });
      assert.equal((answer.structuredContent as { result?: unknown }).result, "done");
      assertSteps(seen);
    } finally {
      await client.close();
    }
  });

  test("a 2.x client on 2026-07-28 (stateless)", async () => {
    const client = new Client2(
      { name: "sdk2-http-progress", version: "1" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new HttpTransport2(new URL(running.url)));
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      const seen: Seen[] = [];
      const answer = await client.callTool(
        { name: "execute_code", arguments: { code: CODE } },
        { timeout: 60_000, onprogress: (progress: Seen) => seen.push(progress) },
      );
      assert.equal((answer.structuredContent as { result?: unknown }).result, "done");
      assertSteps(seen);
    } finally {
      await client.close();
    }
  });
});
