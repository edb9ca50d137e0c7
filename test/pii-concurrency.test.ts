import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import type { ExecuteResponse } from "../src/gateway/types.ts";
import { FILESYSTEM_JS, tempDir } from "./helpers/servers.ts";

const dir = tempDir("pii-concurrency");
after(() => dir.remove());

// Digit-heavy and under the 10 MiB an upstream message may have (the result holds it twice: text and structuredContent): ~0.15 MB/s before the fix, a minute of frozen gateway.
const BIG = join(dir.path, "big.log");
writeFileSync(BIG, `${"12345 ".repeat(700_000)}\nowner ann@example.com`);

describe("PII scanning does not hold up other sessions", () => {
  test("a small execution completes while another session's 8 MB tool result is scanned", async () => {
    const gw = new Gateway({
      config: {
        mcpServers: { filesystem: { command: process.execPath, args: [FILESYSTEM_JS, dir.path] } },
        toolscript: {
          storage: { dir: join(dir.path, "store") },
          // The approval of the large read is the moment the small execution starts: after the read was asked for.
          policy: { approve: ["filesystem/read_text_file"] },
        },
      },
    });
    await gw.start();
    try {
      const order: string[] = [];
      let small: Promise<ExecuteResponse> | undefined;
      const large = gw
        .execute({
          session: "large",
          code: `const read = await tools.filesystem.read_text_file({ path: ${JSON.stringify(BIG)} });
                 const text = typeof read === "string" ? read : read.content;
                 return { length: text.length, tail: text.slice(-30) };`,
          approver: async () => {
            small = gw
              .execute({
                session: "small",
                code: `let dirs: unknown = "";
                       for (let i = 0; i < 3; i++) dirs = await tools.filesystem.list_allowed_directories({});
                       return { dirs, mail: "bob@example.org" };`,
              })
              .then((response) => {
                order.push("small");
                return response;
              });
            return true;
          },
        })
        .then((response) => {
          order.push("large");
          return response;
        });
      const largeResponse = await large;
      assert.ok(small, "the approver ran");
      const smallResponse = await small;
      assert.deepEqual(order, ["small", "large"]);
      assert.equal(largeResponse.error, undefined, JSON.stringify(largeResponse.error));
      const result = largeResponse.answer?.structured.result as { length: number; tail: string };
      assert.match(result.tail, /owner \[EMAIL_1\]$/);
      assert.equal(smallResponse.error, undefined, JSON.stringify(smallResponse.error));
      const smallResult = smallResponse.answer?.structured.result as { mail: string } | undefined;
      assert.equal(smallResult?.mail, "[EMAIL_1]");
    } finally {
      await gw.close();
    }
  });
});
