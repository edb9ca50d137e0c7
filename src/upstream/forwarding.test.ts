import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { EVERYTHING_JS, stdioServer } from "../../test/helpers/servers.ts";
import { atOrAbove } from "./forwarding.ts";
import { UpstreamManager } from "./manager.ts";
import type { ClientRequestHooks, UpstreamProgress } from "./types.ts";

const FAST = { connectTimeoutMs: 8000, restart: { maxRetries: 0, initialDelayMs: 100, maxDelayMs: 100 } };

function textOf(result: { content?: unknown }): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((part) => part.text ?? "").join("\n");
}

function waitFor<T>(check: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 25);
    };
    tick();
  });
}

test("log levels: a message passes at or above the threshold, unknown levels pass", () => {
  assert.equal(atOrAbove("error", "warning"), true);
  assert.equal(atOrAbove("info", "warning"), false);
  assert.equal(atOrAbove("info", undefined), true);
  assert.equal(atOrAbove("verbose", "emergency"), true);
});

describe("forwarding with server-everything over stdio (2025-era server)", () => {
  const asked: Array<{ kind: string; server: string; params?: unknown }> = [];
  const logs: Array<{ server: string; params: unknown }> = [];
  const hooks: ClientRequestHooks = {
    async sample(server, params) {
      asked.push({ kind: "sample", server, params });
      return {
        role: "assistant",
        model: "test-model",
        content: { type: "text", text: "sampled by the hook" },
      };
    },
    async elicit(server, params) {
      asked.push({ kind: "elicit", server, params });
      return { action: "decline" };
    },
    async listRoots(server) {
      asked.push({ kind: "roots", server });
      return { roots: [{ uri: "file:///srv/project", name: "project" }] };
    },
  };
  let manager: UpstreamManager;

  before(async () => {
    manager = new UpstreamManager(
      [stdioServer("everything", EVERYTHING_JS, ["stdio"])],
      { ...FAST, clientRequests: hooks },
      { onLog: (server, params) => logs.push({ server, params }) },
    );
    await manager.start();
    // The tools that need sampling, elicitation or roots are added after `initialize`, then announced.
    await waitFor(
      () =>
        manager.connection("everything").tools.some((tool) => tool.name === "get-roots-list")
          ? true
          : undefined,
      "the capability-dependent tools",
    );
  });
  after(() => manager.close());

  test("negotiates a 2025 revision: the server does not offer 2026-07-28", () => {
    const status = manager.connection("everything").status();
    assert.equal(status.state, "ready");
    assert.match(status.protocolVersion ?? "", /^2025-/);
  });

  test("sampling, elicitation and roots requests reach the hooks, named by server", async () => {
    const sampled = await manager.callTool("everything", "trigger-sampling-request", { prompt: "hi" });
    assert.match(textOf(sampled), /sampled by the hook/);
    const elicited = await manager.callTool("everything", "trigger-elicitation-request", {});
    assert.match(textOf(elicited), /declined/i);
    const roots = await manager.callTool("everything", "get-roots-list", {});
    assert.match(textOf(roots), /file:\/\/\/srv\/project/);
    assert.deepEqual([...new Set(asked.map((entry) => `${entry.kind}:${entry.server}`))].sort(), [
      "elicit:everything",
      "roots:everything",
      "sample:everything",
    ]);
    const sample = asked.find((entry) => entry.kind === "sample");
    assert.ok(JSON.stringify(sample?.params).includes("hi"));
  });

  test("progress of a call reaches its onProgress", async () => {
    const seen: UpstreamProgress[] = [];
    const result = await manager.callTool(
      "everything",
      "trigger-long-running-operation",
      { duration: 0.6, steps: 3 },
      { onProgress: (progress) => seen.push(progress) },
    );
    assert.match(textOf(result), /completed/);
    // The last step's notification races the result itself (the SDK drops progress once a call has
    // its answer); the steps before it come 200 ms ahead.
    assert.deepEqual(
      seen.slice(0, 2).map((progress) => [progress.progress, progress.total]),
      [
        [1, 3],
        [2, 3],
      ],
    );
  });

  test("log messages are forwarded, with the server's name", async () => {
    await manager.setLoggingLevel("debug");
    await manager.callTool("everything", "toggle-simulated-logging", {});
    try {
      const log = await waitFor(() => logs[0], "a log message");
      assert.equal(log.server, "everything");
      assert.match(
        String((log.params as { level?: unknown }).level),
        /^(debug|info|notice|warning|error|critical|alert|emergency)$/,
      );
    } finally {
      await manager.callTool("everything", "toggle-simulated-logging", {});
    }
  });
});

describe("client requests the gateway cannot answer", () => {
  test("without hooks nothing is declared: the server offers no sampling, elicitation or roots tools", async () => {
    const manager = new UpstreamManager([stdioServer("everything", EVERYTHING_JS, ["stdio"])], FAST);
    try {
      await manager.start();
      const names = manager.connection("everything").tools.map((tool) => tool.name);
      assert.ok(names.includes("echo"));
      for (const name of ["trigger-sampling-request", "trigger-elicitation-request", "get-roots-list"]) {
        assert.ok(!names.includes(name), `${name} should not be offered`);
      }
    } finally {
      await manager.close();
    }
  });

  test("a hook that fails answers the server with an error naming the server and the reason", async () => {
    const manager = new UpstreamManager([stdioServer("everything", EVERYTHING_JS, ["stdio"])], {
      ...FAST,
      clientRequests: {
        async sample() {
          throw new Error("the client in front declared no sampling");
        },
      },
    });
    try {
      await manager.start();
      await waitFor(
        () =>
          manager.connection("everything").tools.some((tool) => tool.name === "trigger-sampling-request")
            ? true
            : undefined,
        "the sampling tool",
      );
      const outcome = await manager
        .callTool("everything", "trigger-sampling-request", { prompt: "hi" })
        .then(textOf, (error: Error) => error.message);
      assert.match(outcome, /sampling\/createMessage from server "everything" cannot be answered/);
      assert.match(outcome, /the client in front declared no sampling/);
    } finally {
      await manager.close();
    }
  });
});
