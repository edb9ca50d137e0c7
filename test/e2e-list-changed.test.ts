import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioTransport2 } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioTransport1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { serveStdioFolder } from "./helpers/serve-stdio.ts";
import { SCRIPTED_JS } from "./helpers/servers.ts";

// A client of `toolscript serve` (stdio) hears when what it can list changed: a server's
// tools (execute_code's description, the declaration resources) and the saved skills.

/** Resolves on the next call of the returned hook. */
function signal() {
  let fire: () => void = () => {};
  let promise = new Promise<void>((resolve) => (fire = resolve));
  return {
    hook: () => fire(),
    next: () => promise,
    reset: () => {
      promise = new Promise<void>((resolve) => (fire = resolve));
    },
  };
}

/** `promise`, or a failure naming what never came after 20 s. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within 20 s`)), 20_000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe("toolscript serve (stdio): list_changed to clients of both eras", () => {
  const { dir, params } = serveStdioFolder("e2e-list-changed", {
    mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
    toolscript: { sandbox: { timeoutMs: 10_000, memoryMb: 64 } },
  });
  after(() => dir.remove());

  test("SDK 1.x: a new upstream tool and a saved skill", async () => {
    const client = new Client1({ name: "sdk1-list-changed", version: "1" });
    const tools = signal();
    const resources = signal();
    client.setNotificationHandler(ToolListChangedNotificationSchema, tools.hook);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, resources.hook);
    await client.connect(new StdioTransport1(params()));
    try {
      const call = (code: string) =>
        client.callTool({ name: "execute_code", arguments: { code } }, undefined, { timeout: 60_000 });
      await call("return 1");
      tools.reset();
      resources.reset();
      await call('await tools.scripted.add_tool({ name: "fresh_one" })');
      await within(tools.next(), "tools/list_changed");
      await within(resources.next(), "resources/list_changed");
      const listed = await client.listResources();
      assert.ok(
        listed.resources.some((entry) => entry.uri === "toolscript://servers/scripted/fresh_one.d.ts"),
      );
      resources.reset();
      const saved = await client.callTool({
        name: "save_skill",
        arguments: {
          name: "double",
          code: "export function double(x: number): number { return 2 * x; }",
          description: "Doubles a number.",
        },
      });
      assert.notEqual(saved.isError, true, JSON.stringify(saved.content));
      await within(resources.next(), "resources/list_changed after save_skill");
      const after = await client.listResources();
      assert.ok(after.resources.some((entry) => entry.uri === "toolscript://skills/double.ts"));
    } finally {
      await client.close();
    }
  });

  test("SDK 2.x on 2026-07-28: on its subscriptions/listen stream", async () => {
    const client = new Client2(
      { name: "sdk2-list-changed", version: "1" },
      { versionNegotiation: { mode: "auto" } },
    );
    const tools = signal();
    const resources = signal();
    client.setNotificationHandler("notifications/tools/list_changed", tools.hook);
    client.setNotificationHandler("notifications/resources/list_changed", resources.hook);
    await client.connect(new StdioTransport2(params()), { timeout: 60_000 });
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      const subscription = await client.listen({ toolsListChanged: true, resourcesListChanged: true });
      await client.callTool(
        {
          name: "execute_code",
          arguments: { code: 'await tools.scripted.add_tool({ name: "modern_one" })' },
        },
        { timeout: 60_000 },
      );
      await within(tools.next(), "tools/list_changed on the listen stream");
      await within(resources.next(), "resources/list_changed on the listen stream");
      await subscription.close();
    } finally {
      await client.close();
    }
  });
});
