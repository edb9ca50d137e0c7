import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { after, test } from "node:test";
import { writeGatewayConfig } from "./helpers/gateway-config.ts";
import { cliArgs, REPO_ROOT, tempDir } from "./helpers/servers.ts";

const INSPECTOR = join(REPO_ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
const dir = tempDir("inspector");
after(() => dir.remove());

test("a third-party client (@modelcontextprotocol/inspector-cli) runs execute_code", () => {
  const config = writeGatewayConfig(dir.path, dir.path);
  const result = spawnSync(
    process.execPath,
    [
      INSPECTOR,
      process.execPath,
      ...cliArgs("serve", "--config", config),
      "--method",
      "tools/call",
      "--tool-name",
      "execute_code",
      "--tool-arg",
      "code=const r = await tools.scripted.add({ a: 2, b: 3 }); const e = await tools.everything.echo({ message: 'hi' }); return { sum: r.sum, e }",
    ],
    // inspector-cli 1.0.3 reads "../package.json" relative to its working directory.
    { cwd: join(REPO_ROOT, "test"), encoding: "utf8", timeout: 60_000 },
  );
  assert.equal(result.status, 0, result.stderr);
  const answer = JSON.parse(result.stdout) as { structuredContent: { result: unknown; toolCalls: number } };
  assert.deepEqual(answer.structuredContent.result, { sum: 5, e: "Echo: hi" });
  assert.equal(answer.structuredContent.toolCalls, 2);
});
