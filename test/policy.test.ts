import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { execute } from "./helpers/mcp-client.ts";
import { cliArgs, EVERYTHING_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const dir = tempDir("policy");
after(() => dir.remove());

function writeConfig(name: string, policy: Record<string, unknown>): string {
  const file = join(dir.path, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        scripted: { command: process.execPath, args: [SCRIPTED_JS] },
        everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] },
      },
      toolscript: { policy },
    }),
  );
  return file;
}

/** A real SDK client; `answer` (if given) is how it answers elicitation requests. */
async function connect(
  config: string,
  answer?: "accept" | "decline",
): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client(
    { name: "policy-test", version: "1" },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer === "accept" ? { action: "accept", content: { approve: true } } : { action: "decline" };
    });
  }
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: cliArgs("serve", "--config", config) }),
  );
  return { client, asked };
}

describe("policies through execute_code", () => {
  const config = writeConfig("rules", { deny: ["scripted/crash"], approve: ["scripted/echo"] });

  test("a denied tool throws PolicyError and never reaches the upstream", async () => {
    const { client } = await connect(config);
    try {
      const caught = await execute(
        client,
        "try { await tools.scripted.crash({}); } catch (e) { return [e.name, e instanceof PolicyError, e.message]; }",
      );
      assert.deepEqual(caught.structured.result, [
        "PolicyError",
        true,
        "refused: scripted/crash is denied by policy.deny",
      ]);
      const uncaught = await execute(client, "await tools.scripted.crash({});");
      assert.equal(uncaught.structured.error?.kind, "policy");
      const log = await execute(client, "return await tools.scripted.call_log({})");
      assert.deepEqual(log.structured.result, ["call_log"], "the server never saw crash");
    } finally {
      await client.close();
    }
  });

  test("approval through MCP elicitation: accept runs the call, decline refuses it", async () => {
    const accepting = await connect(config, "accept");
    try {
      const answer = await execute(
        accepting.client,
        'return await tools.scripted.echo({ message: "approved" })',
      );
      assert.equal(answer.structured.result, "approved");
      assert.equal(accepting.asked.length, 1);
      assert.match(accepting.asked[0] ?? "", /scripted\/echo/);
      assert.match(accepting.asked[0] ?? "", /"message": "approved"/);
    } finally {
      await accepting.client.close();
    }
    const declining = await connect(config, "decline");
    try {
      const answer = await execute(declining.client, 'return await tools.scripted.echo({ message: "no" })');
      assert.equal(answer.structured.error?.kind, "policy");
      assert.match(answer.structured.error?.message ?? "", /did not approve scripted\/echo/);
    } finally {
      await declining.client.close();
    }
  });

  test("a client without elicitation gets a clear refusal for approval-gated tools", async () => {
    const { client } = await connect(config);
    try {
      const answer = await execute(client, 'return await tools.scripted.echo({ message: "x" })');
      assert.equal(answer.structured.error?.kind, "policy");
      assert.match(answer.structured.error?.message ?? "", /does not support MCP elicitation/);
    } finally {
      await client.close();
    }
  });

  test("read-only mode: annotated readers run, unannotated tools need approval", async () => {
    const { client } = await connect(writeConfig("readonly", { readOnly: true, unannotated: "deny" }));
    try {
      const reader = await execute(client, 'return await tools.everything.echo({ message: "read" })');
      assert.equal(reader.isError, false, reader.text);
      const unannotated = await execute(client, "return await tools.scripted.pid({})");
      assert.equal(unannotated.structured.error?.kind, "policy");
      assert.match(unannotated.structured.error?.message ?? "", /read-only mode/);
    } finally {
      await client.close();
    }
  });
});
