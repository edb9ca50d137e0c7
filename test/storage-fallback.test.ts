import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

test("a data directory that cannot be opened leaves the gateway serving, in memory, with a warning", async () => {
  const dir = tempDir("storage-fallback");
  const notADirectory = join(dir.path, "a-file");
  writeFileSync(notADirectory, "not a directory");
  const warnings: string[] = [];
  const gateway = new Gateway({
    config: {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: { storage: { dir: join(notADirectory, "store") } },
    },
    logger: { info() {}, warn: (message) => warnings.push(message), error() {} },
  });
  try {
    await gateway.start();
    assert.ok(
      warnings.some((warning) => /cannot open the data directory .*kept in memory/.test(warning)),
      warnings.join("\n"),
    );
    const response = await gateway.execute({
      session: "s",
      code: 'await workspace.writeFile("a.txt", "hi"); return [await workspace.readFile("a.txt", "utf8"), (await tools.scripted.add({ a: 1, b: 2 })).sum]',
    });
    assert.deepEqual(response.result, ["hi", 3]);
  } finally {
    await gateway.close();
    dir.remove();
  }
});
