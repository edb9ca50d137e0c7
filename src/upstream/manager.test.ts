import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { after, before, describe, test } from "node:test";
import {
  EVERYTHING_JS,
  FILESYSTEM_JS,
  freePort,
  isAlive,
  MEMORY_JS,
  SCRIPTED_JS,
  startEverythingHttp,
  stdioServer,
  tempDir,
} from "../../test/helpers/servers.ts";
import { UpstreamError } from "./errors.ts";
import { UpstreamManager } from "./manager.ts";
import type { UpstreamServerConfig, UpstreamStatus } from "./types.ts";

const FAST = { connectTimeoutMs: 4000, restart: { maxRetries: 0, initialDelayMs: 100, maxDelayMs: 100 } };

function textOf(result: { content?: unknown }): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((part) => part.text ?? "").join("");
}

function waitFor<T>(check: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined && value !== false) return resolve(value);
      if (Date.now() - started > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 25);
    };
    tick();
  });
}

describe("UpstreamManager with real servers", () => {
  const dir = tempDir("fs");
  const memory = tempDir("memory");
  let manager: UpstreamManager;
  let statuses: UpstreamStatus[];
  let startMs = 0;

  before(async () => {
    const servers: UpstreamServerConfig[] = [
      stdioServer("everything", EVERYTHING_JS, ["stdio"]),
      stdioServer("filesystem", FILESYSTEM_JS, [dir.path]),
      stdioServer("memory", MEMORY_JS, [], { MEMORY_FILE_PATH: `${memory.path}/memory.jsonl` }),
      stdioServer("scripted", SCRIPTED_JS, ["--page-size", "2"], { SCRIPTED_SECRET: "s3cret" }),
      stdioServer("exits", SCRIPTED_JS, ["--exit-at-once", "3"]),
      stdioServer("hangs", SCRIPTED_JS, ["--hang-list"]),
      { ...stdioServer("off", SCRIPTED_JS), disabled: true },
      { ...stdioServer("missing", ""), command: "/nonexistent/bin/mcp-server", args: [] },
    ];
    manager = new UpstreamManager(servers, FAST);
    const started = Date.now();
    statuses = await manager.start();
    startMs = Date.now() - started;
  });

  after(async () => {
    await manager.close();
    dir.remove();
    memory.remove();
  });

  test("starts in parallel: a hanging server costs its timeout once, not per server", () => {
    assert.ok(startMs < FAST.connectTimeoutMs + 3000, `start took ${startMs} ms`);
  });

  test("healthy servers are ready with their tools", () => {
    const byName = new Map(statuses.map((status) => [status.server, status]));
    for (const name of ["everything", "filesystem", "memory", "scripted"]) {
      assert.equal(byName.get(name)?.state, "ready", `${name}: ${JSON.stringify(byName.get(name))}`);
      assert.ok((byName.get(name)?.toolCount ?? 0) > 0);
    }
    assert.equal(byName.get("everything")?.transport, "stdio");
    assert.equal(byName.get("everything")?.serverInfo?.name !== undefined, true);
  });

  test("follows tools/list pagination", () => {
    const names = manager
      .tools()
      .get("scripted")
      ?.map((tool) => tool.name);
    assert.deepEqual(names, [
      "echo",
      "add",
      "fail",
      "crash",
      "slow",
      "cancelled_calls",
      "add_tool",
      "pid",
      "call_log",
      "rows",
      "huge_log",
      "env",
      "meta",
    ]);
  });

  test("a server that exits at once is failed, with the tail of its stderr", () => {
    const status = statuses.find((entry) => entry.server === "exits");
    assert.equal(status?.state, "failed");
    assert.equal(status?.error, "process exited during start-up (exit code 3)");
    assert.match(status?.stderrTail ?? "", /missing API key SCRIPTED_KEY/);
  });

  test("a server that hangs on tools/list is failed with a timeout", () => {
    const status = statuses.find((entry) => entry.server === "hangs");
    assert.equal(status?.state, "failed");
    assert.match(status?.error ?? "", /no answer within 4000 ms/);
  });

  test("a missing command and a disabled server are reported, not fatal", () => {
    const missing = statuses.find((entry) => entry.server === "missing");
    assert.equal(missing?.state, "failed");
    assert.match(missing?.error ?? "", /ENOENT/);
    assert.equal(statuses.find((entry) => entry.server === "off")?.state, "disabled");
  });

  test("calls reach the servers", async () => {
    const echoed = await manager.callTool("everything", "echo", { message: "hi" });
    assert.match(textOf(echoed), /hi/);
    const added = await manager.callTool("scripted", "add", { a: 2, b: 3 });
    assert.deepEqual(added.structuredContent, { sum: 5 });
  });

  test("sequential calls sharing one signal leave no abort listener behind", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) {
      await manager.callTool("scripted", "echo", { message: "x" }, { signal: controller.signal });
    }
    assert.equal(getEventListeners(controller.signal, "abort").length, 0);
  });

  test("the child gets only its configured env, not the gateway's", async () => {
    process.env.TOOLSCRIPT_TEST_LEAK = "leaked";
    const secret = await manager.callTool("scripted", "env", { name: "SCRIPTED_SECRET" });
    assert.equal(textOf(secret), "s3cret");
    assert.equal(
      textOf(await manager.callTool("scripted", "env", { name: "TOOLSCRIPT_TEST_LEAK" })),
      "(unset)",
    );
  });

  test("calls to a failed or unknown server fail fast with a clear error", async () => {
    await assert.rejects(manager.callTool("exits", "echo", {}), (error: unknown) => {
      assert.ok(error instanceof UpstreamError);
      assert.equal(error.code, "upstream.unavailable");
      assert.match(error.message, /"exits" is failed/);
      return true;
    });
    await assert.rejects(manager.callTool("nope", "echo", {}), { code: "upstream.unknown_server" });
  });

  test("per-call timeout sends notifications/cancelled upstream", async () => {
    await assert.rejects(manager.callTool("scripted", "slow", { ms: 5000 }, { timeoutMs: 200 }), {
      code: "upstream.timeout",
    });
    const controller = new AbortController();
    const pending = manager.callTool("scripted", "slow", { ms: 5000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("execution ended")), 100);
    await assert.rejects(pending, { code: "upstream.cancelled" });
    // The server learns of a cancellation asynchronously; poll briefly.
    let cancelled: string[] = [];
    for (let tries = 0; tries < 40 && cancelled.length < 2; tries++) {
      cancelled = JSON.parse(textOf(await manager.callTool("scripted", "cancelled_calls", {}))) as string[];
      if (cancelled.length < 2) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(cancelled.length, 2);
  });

  test("notifications/tools/list_changed refreshes the tool list", async () => {
    await manager.callTool("scripted", "add_tool", { name: "brand_new" });
    await waitFor(
      () =>
        manager
          .tools()
          .get("scripted")
          ?.some((tool) => tool.name === "brand_new"),
      "new tool",
    );
  });
});

describe("restart and shutdown", () => {
  test("a stdio server that dies mid-call fails that call, then restarts with backoff", async () => {
    const manager = new UpstreamManager([stdioServer("scripted", SCRIPTED_JS)], {
      restart: { maxRetries: 3, initialDelayMs: 1500, maxDelayMs: 3000 },
    });
    try {
      await manager.start();
      const firstPid = Number(textOf(await manager.callTool("scripted", "pid", {})));
      await assert.rejects(manager.callTool("scripted", "crash", {}), { code: "upstream.unavailable" });
      const status = manager.statuses()[0];
      assert.equal(status?.state, "restarting");
      assert.match(status?.error ?? "", /exit code 7/);
      assert.match(status?.stderrTail ?? "", /crashing on purpose/);
      const started = Date.now();
      await assert.rejects(manager.callTool("scripted", "echo", { message: "x" }), {
        code: "upstream.unavailable",
      });
      assert.ok(Date.now() - started < 750, "fails fast while restarting (the restart is 1.5 s away)");
      await waitFor(() => manager.statuses()[0]?.state === "ready" || undefined, "restart");
      assert.equal(manager.statuses()[0]?.restarts, 1);
      const secondPid = Number(textOf(await manager.callTool("scripted", "pid", {})));
      assert.notEqual(secondPid, firstPid);
      assert.equal(isAlive(firstPid), false);
    } finally {
      await manager.close();
    }
  });

  test("close leaves no child or grandchild process behind", async () => {
    const viaShell: UpstreamServerConfig = {
      kind: "stdio",
      name: "shell",
      command: "/bin/sh",
      args: ["-c", `"${process.execPath}" "${SCRIPTED_JS}"; echo done >&2`],
      env: {},
      disabled: false,
    };
    const manager = new UpstreamManager([viaShell, stdioServer("direct", SCRIPTED_JS)]);
    await manager.start();
    const pids = [
      Number(textOf(await manager.callTool("shell", "pid", {}))),
      Number(textOf(await manager.callTool("direct", "pid", {}))),
    ];
    assert.ok(pids.every(isAlive));
    await manager.close();
    await waitFor(() => pids.every((pid) => !isAlive(pid)) || undefined, "children to exit", 3000);
    assert.deepEqual(
      manager.statuses().map((status) => status.state),
      ["closed", "closed"],
    );
  });
});

describe("remote servers", () => {
  test("Streamable HTTP, legacy SSE fallback, and an unreachable URL", async () => {
    const http = await startEverythingHttp("streamableHttp");
    const sse = await startEverythingHttp("sse");
    const deadPort = await freePort();
    const manager = new UpstreamManager(
      [
        { kind: "http", name: "http", url: http.url, headers: {}, transport: "auto", disabled: false },
        { kind: "http", name: "sse", url: sse.url, headers: {}, transport: "auto", disabled: false },
        {
          kind: "http",
          name: "dead",
          url: `http://127.0.0.1:${deadPort}/mcp`,
          headers: {},
          transport: "auto",
          disabled: false,
        },
      ],
      FAST,
    );
    try {
      const statuses = await manager.start();
      const byName = new Map(statuses.map((status) => [status.server, status]));
      assert.equal(byName.get("http")?.state, "ready");
      assert.equal(byName.get("http")?.transport, "streamable-http");
      assert.equal(byName.get("sse")?.state, "ready", JSON.stringify(byName.get("sse")));
      assert.equal(byName.get("sse")?.transport, "sse");
      assert.equal(byName.get("dead")?.state, "failed");
      assert.match(byName.get("dead")?.error ?? "", /Streamable HTTP: .*legacy SSE: /);
      const echoed = await manager.callTool("http", "echo", { message: "over http" });
      assert.match(textOf(echoed), /over http/);
      const echoedSse = await manager.callTool("sse", "echo", { message: "over sse" });
      assert.match(textOf(echoedSse), /over sse/);
    } finally {
      await manager.close();
      await http.stop();
      await sse.stop();
    }
  });
});
