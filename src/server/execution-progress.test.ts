import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ServerContext } from "@modelcontextprotocol/server";
import type { CallProgress } from "../bridge/progress.ts";
import type { CatalogTool } from "../catalog/types.ts";
import type { ClientConnection } from "./client-connection.ts";
import { describe as describeEvent, executionProgress } from "./execution-progress.ts";

const tool: CatalogTool = {
  server: "everything",
  tool: "trigger-long-running-operation",
  serverId: "everything",
  toolId: "trigger_long_running_operation",
  path: "tools.everything.trigger_long_running_operation",
  definition: { name: "trigger-long-running-operation", inputSchema: { type: "object" } },
};
const step = (progress: number, total?: number, message?: string): CallProgress => ({
  kind: "upstream",
  tool,
  progress: { progress, total, message },
});

interface Sent {
  token: unknown;
  progress: number;
  total: number | undefined;
  message: string | undefined;
}

/** A connection that records progress and says when the next one arrives. */
function recorder() {
  const sent: Sent[] = [];
  let waiting: (() => void) | undefined;
  const connection = {
    async progress(token: unknown, progress: number, total?: number, message?: string) {
      sent.push({ token, progress, total, message });
      waiting?.();
    },
  } as unknown as ClientConnection;
  const next = () => new Promise<void>((resolve) => (waiting = resolve));
  return { sent, connection, next };
}

const contextWith = (meta: Record<string, unknown> | undefined) =>
  ({ mcpReq: { _meta: meta } }) as unknown as ServerContext;

describe("execute_code progress", () => {
  test("nothing without a progress token", () => {
    const { connection } = recorder();
    assert.equal(executionProgress(connection, contextWith(undefined)), undefined);
    assert.equal(executionProgress(connection, contextWith({})), undefined);
  });

  test("values strictly increase across calls, with the call named in the message", () => {
    const { sent, connection } = recorder();
    const progress = executionProgress(connection, contextWith({ progressToken: "t1" }), 0);
    assert.ok(progress);
    progress.listener(step(3, 10, "copying"));
    // Another call's server restarts its own count: the execution's value still goes up.
    progress.listener(step(1, 10));
    progress.listener({ kind: "done", tool, ok: true, calls: 1 });
    progress.listener({ kind: "done", tool, ok: false, calls: 2 });
    progress.stop();
    assert.deepEqual(
      sent.map((entry) => [entry.token, entry.progress, entry.total, entry.message]),
      [
        ["t1", 1, undefined, "everything.trigger_long_running_operation: 3/10 copying"],
        ["t1", 2, undefined, "everything.trigger_long_running_operation: 1/10"],
        ["t1", 3, undefined, "everything.trigger_long_running_operation done (1 call)"],
        ["t1", 4, undefined, "everything.trigger_long_running_operation failed (2 calls)"],
      ],
    );
  });

  test("a burst is coalesced: the first goes out, then only the latest", async () => {
    const { sent, connection, next } = recorder();
    const progress = executionProgress(connection, contextWith({ progressToken: 7 }), 30);
    assert.ok(progress);
    progress.listener(step(1));
    const second = next();
    for (let index = 2; index <= 100; index++) progress.listener(step(index));
    assert.equal(sent.length, 1, "only the first is sent at once");
    await second;
    assert.deepEqual(
      sent.map((entry) => [entry.progress, entry.message]),
      [
        [1, "everything.trigger_long_running_operation: 1"],
        [100, "everything.trigger_long_running_operation: 100"],
      ],
    );
    progress.stop();
  });

  test("stop drops what is pending and ignores what comes after", async () => {
    const { sent, connection } = recorder();
    const progress = executionProgress(connection, contextWith({ progressToken: "t" }), 10);
    assert.ok(progress);
    progress.listener(step(1));
    progress.listener(step(2));
    progress.stop();
    progress.listener(step(3));
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.deepEqual(
      sent.map((entry) => entry.progress),
      [1],
    );
  });

  test("a quiet program still reports its elapsed time and the calls it made", async () => {
    const { sent, connection, next } = recorder();
    // The heartbeat does not hold the process open by itself (a server's request does).
    const keepAlive = setTimeout(() => {}, 5000);
    const progress = executionProgress(connection, contextWith({ progressToken: "h" }), 0, 50);
    assert.ok(progress);
    progress.listener({ kind: "done", tool, ok: true, calls: 1 });
    progress.listener({ kind: "done", tool, ok: true, calls: 2 });
    await next();
    await next();
    progress.stop();
    const beats = sent.slice(2);
    assert.equal(beats.length, 2);
    for (const beat of beats) assert.match(beat.message ?? "", /^running \d+\.\d s, 2 tool calls made$/);
    assert.deepEqual(
      sent.map((entry) => entry.progress),
      [1, 2, 3, 4],
    );
    // Nothing after stop: the heartbeat ended with the request.
    await new Promise((resolve) => setTimeout(resolve, 120));
    assert.equal(sent.length, 4);
    clearTimeout(keepAlive);
  });

  test("resources and prompts requests are named by server and method", () => {
    const request: CatalogTool = {
      ...tool,
      tool: "resources/read",
      toolId: "resources_read",
      path: "resources.read",
    };
    assert.equal(
      describeEvent({ kind: "done", tool: request, ok: true, calls: 3 }),
      "everything resources/read done (3 calls)",
    );
  });
});
