import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { execute } from "./helpers/mcp-client.ts";
import { cliArgs, EVERYTHING_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const dir = tempDir("serve-readiness");
after(() => dir.remove());

// Well under the hung server's 60 s connect timeout: before the fix serve answered nothing until then.
test("serve answers its client while an upstream never answers initialize; a late server joins with tools/list_changed", {
  timeout: 40_000,
}, async () => {
  const config = join(dir.path, "toolscript.config.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        hung: { command: process.execPath, args: [SCRIPTED_JS, "--hang-init"] },
        everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] },
        late: { command: process.execPath, args: [SCRIPTED_JS, "--init-delay", "1500"] },
      },
      // A hung server holds its first attempt this long; the client must not wait for it.
      toolscript: { upstream: { connectTimeoutMs: 60_000 }, storage: { dir: join(dir.path, "store") } },
    }),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs("serve", "--config", config),
    stderr: "pipe",
  });
  const client = new Client({ name: "readiness", version: "1.0.0" });
  let changed = 0;
  let lateJoined: () => void = () => {};
  const joined = new Promise<void>((resolve) => {
    lateJoined = resolve;
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changed++;
    const { tools } = await client.listTools();
    const description = tools.find((tool) => tool.name === "execute_code")?.description ?? "";
    if (/^- late(: (?!connecting|failed|restarting).*)? \([1-9]\d*\)$/m.test(description)) lateJoined();
  });
  try {
    // Resolves within the test's default timeout only if serve answers before the 60 s connect timeout.
    await client.connect(transport);
    const { tools } = await client.listTools();
    const description = tools.find((tool) => tool.name === "execute_code")?.description ?? "";
    assert.match(description, /^- hung: connecting \(0\)$/m, description);

    await joined;
    assert.ok(changed > 0);
    const answer = await execute(client, `return await tools.late.echo({ message: "late and working" })`);
    assert.equal(answer.isError, false, answer.text);
    assert.match(answer.text, /late and working/);
    const again = await client.listTools();
    assert.match(
      again.tools.find((tool) => tool.name === "execute_code")?.description ?? "",
      /^- hung: connecting \(0\)$/m,
      "the hung server is still in its first attempt: the answers above did not wait for it",
    );
  } finally {
    await client.close();
  }
});
