import assert from "node:assert/strict";
import { test } from "node:test";
import { SCRIPTED_JS, startEverythingHttp, stdioServer } from "../../test/helpers/servers.ts";
import { UpstreamError } from "./errors.ts";
import { UpstreamManager } from "./manager.ts";

const LIMIT = 64 * 1024;
const OPTIONS = { connectTimeoutMs: 8000, maxMessageBytes: LIMIT };

function textOf(result: { content?: unknown }): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((part) => part.text ?? "").join("");
}

async function assertTooLarge(call: Promise<unknown>, server: string): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof UpstreamError, String(error));
    assert.equal(error.code, "upstream.message_too_large", error.message);
    assert.match(error.message, new RegExp(`^server "${server}" answered (echo|rows) with `));
    assert.match(error.message, /over the limit of 64\.0 KiB \(65536 bytes\) for one upstream message/);
    assert.equal(error.data.limit, LIMIT);
    return true;
  });
}

test("an answer over maxMessageBytes fails its own call over stdio, Streamable HTTP and legacy SSE; the next call works", async () => {
  const http = await startEverythingHttp("streamableHttp");
  const sse = await startEverythingHttp("sse");
  const manager = new UpstreamManager(
    [
      stdioServer("stdio", SCRIPTED_JS),
      {
        kind: "http",
        name: "http",
        url: http.url,
        headers: {},
        transport: "streamable-http",
        disabled: false,
      },
      { kind: "http", name: "sse", url: sse.url, headers: {}, transport: "sse", disabled: false },
    ],
    OPTIONS,
  );
  try {
    const statuses = await manager.start();
    assert.deepEqual(
      statuses.map((status) => status.state),
      ["ready", "ready", "ready"],
      JSON.stringify(statuses),
    );
    const big = "x".repeat(100_000);
    // Several in flight at once: only the oversized one fails.
    const [rows, small] = await Promise.allSettled([
      manager.callTool("stdio", "rows", { count: 2000 }),
      manager.callTool("stdio", "echo", { message: "beside it" }),
    ]);
    await assertTooLarge(
      rows.status === "rejected" ? Promise.reject(rows.reason) : Promise.resolve(),
      "stdio",
    );
    assert.equal(small.status === "fulfilled" && textOf(small.value), "beside it");
    await assertTooLarge(manager.callTool("http", "echo", { message: big }), "http");
    await assertTooLarge(manager.callTool("sse", "echo", { message: big }), "sse");
    for (const server of ["stdio", "http", "sse"]) {
      assert.match(textOf(await manager.callTool(server, "echo", { message: "after" })), /after/);
    }
    assert.deepEqual(
      manager.statuses().map((status) => [status.state, status.restarts]),
      [
        ["ready", 0],
        ["ready", 0],
        ["ready", 0],
      ],
    );
  } finally {
    await manager.close();
    await http.stop();
    await sse.stop();
  }
});

test("an oversized message that answers no call restarts the server; the call in flight says why", async () => {
  const manager = new UpstreamManager([stdioServer("stdio", SCRIPTED_JS)], {
    ...OPTIONS,
    restart: { maxRetries: 3, initialDelayMs: 50, maxDelayMs: 50 },
  });
  try {
    await manager.start();
    await assert.rejects(manager.callTool("stdio", "huge_log", { bytes: 100_000 }), (error: unknown) => {
      assert.ok(error instanceof UpstreamError, String(error));
      assert.equal(error.code, "upstream.unavailable");
      assert.match(
        error.message,
        /^server "stdio" was restarted during huge_log: the server sent a message of 97\.\d KiB \(\d+ bytes\), over the limit of 64\.0 KiB/,
      );
      return true;
    });
    const connection = manager.connection("stdio");
    await new Promise<void>((resolve) => {
      const poll = () => (connection.state === "ready" ? resolve() : setTimeout(poll, 25));
      poll();
    });
    assert.match(textOf(await manager.callTool("stdio", "echo", { message: "back" })), /back/);
    assert.equal(connection.status().restarts, 1);
  } finally {
    await manager.close();
  }
});
