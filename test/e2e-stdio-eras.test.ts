import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioTransport2 } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioTransport1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { serveStdioFolder } from "./helpers/serve-stdio.ts";
import { SCRIPTED_JS } from "./helpers/servers.ts";

// `toolscript serve` on stdio driven by a stock SDK 1.x client (2025-era handshake)
// and by the 2.x client negotiating protocol 2026-07-28 (server/discover, no initialize).

describe("toolscript serve (stdio), both protocol eras", () => {
  const { dir, params } = serveStdioFolder("e2e-stdio-eras", {
    mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
    toolscript: { sandbox: { timeoutMs: 10_000, memoryMb: 64 } },
  });
  after(() => dir.remove());

  test("a stock SDK 1.x client runs execute_code", async () => {
    const client = new Client1({ name: "sdk1-stdio", version: "1" });
    await client.connect(new StdioTransport1(params()));
    try {
      const answer = await client.callTool(
        { name: "execute_code", arguments: { code: "return 1 + 1" } },
        undefined,
        {
          timeout: 60_000,
        },
      );
      assert.equal((answer.structuredContent as { result?: unknown }).result, 2);
    } finally {
      await client.close();
    }
  });

  test("a 2.x client negotiates 2026-07-28 and runs execute_code", async () => {
    const client = new Client2(
      { name: "sdk2-stdio", version: "1" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new StdioTransport2(params()), { timeout: 60_000 });
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      const answer = await client.callTool(
        { name: "execute_code", arguments: { code: "return 'modern'" } },
        {
          timeout: 60_000,
        },
      );
      assert.equal((answer.structuredContent as { result?: unknown }).result, "modern");
    } finally {
      await client.close();
    }
  });
});
