import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectServe } from "./helpers/mcp-client.ts";
import { EVERYTHING_JS, tempDir } from "./helpers/servers.ts";

type Part = { type: string; text?: string; data?: string; mimeType?: string };

/** A PNG header saying `width` x `height` (enough for the size to be read), as base64. */
function pngHeader(width: number, height: number): string {
  const bytes = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write("IHDR", 12, "latin1");
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString("base64");
}

describe("images a program returns reach the client as image content (stdio, stock SDK client)", () => {
  const dir = tempDir("e2e-media");
  let client: Client;

  before(async () => {
    client = await connectServe(
      dir.path,
      {
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] } },
        toolscript: { storage: { dir: join(dir.path, "store") } },
      },
      "e2e-media",
    );
  });

  after(async () => {
    await client.close();
    dir.remove();
  });

  async function run(code: string, extra: Record<string, unknown> = {}) {
    const result = await client.callTool({ name: "execute_code", arguments: { code, ...extra } });
    return { content: result.content as Part[], structured: result.structuredContent as { result: unknown } };
  }

  test("server-everything's tiny image: an image block, a small placeholder in the text and structured content", async () => {
    for (const code of [
      "return await tools.everything.get_tiny_image()",
      "const parts = await tools.everything.get_tiny_image(); return parts.find((part) => part.type === 'image')",
    ]) {
      const { content, structured } = await run(code);
      const images = content.filter((part) => part.type === "image");
      assert.equal(images.length, 1, code);
      assert.equal(images[0]?.mimeType, "image/png");
      assert.ok(
        Buffer.from(images[0]?.data ?? "", "base64")
          .subarray(1, 4)
          .toString() === "PNG",
      );
      const text = content[0]?.text ?? "";
      assert.doesNotMatch(text, /iVBORw0KGgo/, "no base64 in the text");
      assert.ok(text.length < 1000, `text of ${text.length} characters`);
      assert.doesNotMatch(JSON.stringify(structured), /iVBORw0KGgo/, "no base64 in structured content");
      assert.match(
        JSON.stringify(structured),
        /"mimeType":"image\/png","bytes":\d+,"tokens":1,"width":20,"height":20/,
      );
    }
  });

  test("images count against maxTokens: past it they are left out with a note", async () => {
    const png = pngHeader(1000, 1000); // 1,334 tokens each
    const { content } = await run(
      "return [1, 2, 3].map(() => ({ type: 'image', data: context.png, mimeType: 'image/png' }))",
      { context: { png }, maxTokens: 3000 },
    );
    assert.equal(content.filter((part) => part.type === "image").length, 2);
    assert.match(content[0]?.text ?? "", /1 image\/audio block was left out/);
    assert.match(content[0]?.text ?? "", /"tokens": 1334/);
  });
});
