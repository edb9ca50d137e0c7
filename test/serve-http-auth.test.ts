import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cliArgs, tempDir } from "./helpers/servers.ts";

const dir = tempDir("serve-http-auth");
after(() => dir.remove());

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(...args), { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    // A gateway that wrongly starts serving is stopped here rather than hanging the test.
    const timer = setTimeout(() => child.kill("SIGTERM"), 60_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("toolscript serve --http without a token", () => {
  test("refuses before any upstream server is started", async () => {
    const marker = join(dir.path, "upstream-started");
    const config = join(dir.path, "toolscript.config.json");
    // An upstream that leaves a marker file as soon as it is spawned.
    const script =
      "require('node:fs').writeFileSync(process.argv[1], 'started'); setInterval(() => {}, 1000);";
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { marker: { command: process.execPath, args: ["-e", script, marker] } } }),
    );
    const env = { ...process.env };
    delete env.TOOLSCRIPT_HTTP_TOKEN;
    const result = await run(["serve", "--config", config, "--http", "127.0.0.1:0"], env);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /needs a bearer token/);
    assert.match(result.stderr, /TOOLSCRIPT_HTTP_TOKEN/);
    assert.match(result.stderr, /allowUnauthenticatedLoopback/);
    assert.equal(existsSync(marker), false, "the upstream was never spawned");
    assert.equal(result.stdout, "");
  });

  test("serve --help documents the token, the clients and the loopback option", async () => {
    const result = await run(["serve", "--help"], process.env);
    assert.equal(result.code, 0);
    for (const needed of [
      "TOOLSCRIPT_HTTP_TOKEN",
      "Authorization: Bearer <token>",
      "toolscript.server.http.clients",
      "allowUnauthenticatedLoopback",
      "maxSessionsPerClient",
    ]) {
      assert.ok(result.stdout.includes(needed), `serve --help mentions ${needed}`);
    }
  });
});
