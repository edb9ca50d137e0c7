import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectServe, execute } from "./helpers/mcp-client.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

/** Every answer stays far below the SDK client's 10 MiB message limit. */
const ANSWER_BYTES_CAP = 1024 * 1024;
const HUGE = 12 * 1024 * 1024;

describe("oversized errors and results through toolscript serve (stdio, stock SDK client)", () => {
  const dir = tempDir("e2e-oversized");
  let client: Client;

  before(async () => {
    client = await connectServe(
      dir.path,
      {
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: {
          sandbox: { timeoutMs: 20_000, memoryMb: 256 },
          storage: { dir: join(dir.path, "store") },
        },
      },
      "e2e-oversized",
    );
  });

  after(async () => {
    await client.close();
    dir.remove();
  });

  /** The answer to `code` is an error with cut text, small enough, and the connection still answers. */
  async function assertBoundedError(code: string, name: RegExp): Promise<void> {
    const answer = await execute(client, code);
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    assert.ok(bytes < ANSWER_BYTES_CAP, `answer is ${bytes} bytes`);
    assert.equal(answer.isError, true, answer.text.slice(0, 500));
    assert.match(answer.structured.error?.name ?? "", name);
    assert.match(answer.text, /cut/);
    const next = await execute(client, "return 1 + 1;");
    assert.equal(next.isError, false, next.text);
    assert.equal(next.structured.result, 2);
  }

  test("a thrown Error of 12 MiB answers with a cut message, and the next call works", async () => {
    await assertBoundedError(`throw new Error("x".repeat(${HUGE}));`, /^Error$/);
  });

  test("a thrown 12 MiB string answers with a cut message, and the next call works", async () => {
    await assertBoundedError(`throw "y".repeat(${HUGE});`, /./);
  });

  test("a returned 12 MiB string answers with an error or a cut value, and the next call works", async () => {
    const answer = await execute(client, `return "z".repeat(${HUGE});`);
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    assert.ok(bytes < ANSWER_BYTES_CAP, `answer is ${bytes} bytes`);
    assert.ok(answer.isError || /cut|reduced/.test(answer.text), answer.text.slice(0, 500));
    const next = await execute(client, "return 1 + 1;");
    assert.equal(next.structured.result, 2);
  });

  test("12 MiB of logs answer within the cap, and the next call works", async () => {
    const answer = await execute(
      client,
      `for (let i = 0; i < 12; i++) console.log("w".repeat(${1024 * 1024})); return 1;`,
    );
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    assert.ok(bytes < ANSWER_BYTES_CAP, `answer is ${bytes} bytes`);
    const next = await execute(client, "return 1 + 1;");
    assert.equal(next.structured.result, 2);
  });
});
