import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cliArgs, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

/** `serve` on stdio with `args`; `whileUp` runs once stderr matches `ready`, then stdin ends. */
function serve(cwd: string, args: string[], ready: RegExp, whileUp: (stderr: string) => Promise<void>) {
  const child = spawn(process.execPath, cliArgs("serve", ...args), { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  let started = false;
  const done = new Promise<{ code: number | null; stderr: string; error?: unknown }>((resolve) => {
    let error: unknown;
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      if (!started && ready.test(stderr)) {
        started = true;
        whileUp(stderr)
          .catch((caught: unknown) => {
            error = caught;
          })
          .finally(() => child.stdin.end());
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, error });
    });
  });
  return done;
}

describe("toolscript serve --admin (stdio)", () => {
  const dir = tempDir("serve-admin");
  const config = join(dir.path, "toolscript.config.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: { storage: { dir: join(dir.path, "data") } },
    }),
  );
  after(() => dir.remove());

  test("serves /health, /ready and /metrics on the loopback port while stdio serves MCP", async () => {
    // Port 0: the system picks a free one (no race with other tests); stderr says which.
    let origin = "";
    const run = await serve(
      dir.path,
      ["--config", config, "--admin", "127.0.0.1:0"],
      /probes at http:\/\/127\.0\.0\.1:\d+\/health[\s\S]*scripted: ready|scripted: ready[\s\S]*probes at http:\/\/127\.0\.0\.1:\d+\/health/,
      async (stderr) => {
        origin = /probes at (http:\/\/127\.0\.0\.1:\d+)\/health/.exec(stderr)?.[1] ?? "";
        const health = await fetch(`${origin}/health`);
        assert.equal(health.status, 200);
        assert.deepEqual(await health.json(), { status: "ok" });
        const ready = await fetch(`${origin}/ready`);
        assert.equal(ready.status, 200);
        const metrics = await fetch(`${origin}/metrics`);
        assert.equal(metrics.status, 200);
        assert.match(await metrics.text(), /^toolscript_upstream_up\{server="scripted"\} 1$/m);
        assert.equal((await fetch(`${origin}/mcp`)).status, 404, "MCP stays on stdio");
      },
    );
    assert.equal(run.error, undefined, `${String(run.error)}\n${run.stderr}`);
    assert.equal(run.code, 0, run.stderr);
    assert.notEqual(origin, "");
  });

  test("refuses a non-loopback address, and --admin with --http", async () => {
    const outside = await serve(
      dir.path,
      ["--config", config, "--admin", "0.0.0.0:9464"],
      /$^/,
      async () => {},
    );
    assert.equal(outside.code, 1);
    assert.match(outside.stderr, /--admin listens on loopback only/);
    const both = await serve(
      dir.path,
      ["--config", config, "--admin", "127.0.0.1:1", "--http", "127.0.0.1:2"],
      /$^/,
      async () => {},
    );
    assert.equal(both.code, 1);
    assert.match(both.stderr, /--admin is for stdio/);
  });
});
