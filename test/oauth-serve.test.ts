import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BROWSER_FOLLOW_MJS, startOAuthFixture } from "./helpers/oauth-fixture.ts";
import { serveStdioFolder } from "./helpers/serve-stdio.ts";

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content ?? [];
  return content.map((block) => block.text ?? "").join("\n");
}

test("serve asks a client that supports URL-mode elicitation to open the login page, then runs the program", async () => {
  const fixture = await startOAuthFixture({});
  const folder = serveStdioFolder("oauth-serve", {
    mcpServers: { secure: { url: fixture.mcpUrl } },
    toolscript: { upstream: { loginTimeoutMs: 60_000 } },
  });
  // The gateway's own browser does nothing: only the client's answer can complete the login.
  const params = { ...folder.params(), env: { ...folder.params().env, BROWSER: "true" } };
  const client = new Client(
    { name: "with-browser", version: "1" },
    { capabilities: { elicitation: { url: {} } } },
  );
  const asked: Array<{ mode?: string; url?: string; message?: string }> = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    const params = request.params as { mode?: string; url?: string; message?: string };
    asked.push(params);
    // What a person does: open the page and approve (the browser stand-in follows the redirects).
    const browser = spawn(process.execPath, [BROWSER_FOLLOW_MJS, String(params.url)], { stdio: "ignore" });
    await once(browser, "exit");
    return { action: "accept" };
  });
  try {
    await client.connect(new StdioClientTransport(params));
    const result = await client.callTool({
      name: "execute_code",
      arguments: { code: "return (await tools.secure.whoami({})).clientId" },
    });
    assert.equal(asked.length, 1, textOf(result));
    assert.equal(asked[0]?.mode, "url");
    assert.match(String(asked[0]?.url), /\/authorize\?/);
    assert.match(String(asked[0]?.message), /Sign in to secure/);
    const stats = await fixture.stats();
    assert.equal(stats.authorizations, 1);
    assert.ok(textOf(result).includes(stats.clients[0] ?? "no client"), textOf(result));
  } finally {
    await client.close().catch(() => {});
    await fixture.stop();
    folder.dir.remove();
  }
});
