import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { cliArgs, REPO_ROOT, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

// `deno` is an optional dependency: without it the isolate tier works, and the
// process tier and Python refuse, naming the package and how to install it.
const HIDE_DENO = join(REPO_ROOT, "test/fixtures/hide-deno-package.cjs");

describe("without the optional deno package", () => {
  const dir = tempDir("no-deno");
  after(() => dir.remove());
  const config = (sandbox: Record<string, unknown>) => {
    const path = join(dir.path, `config-${Object.keys(sandbox).join("-") || "default"}.json`);
    writeFileSync(
      path,
      JSON.stringify({
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: { sandbox, storage: { dir: join(dir.path, "data") } },
      }),
    );
    return path;
  };
  const program = (name: string, source: string) => {
    writeFileSync(join(dir.path, name), source);
    return join(dir.path, name);
  };
  const run = (file: string, configPath: string) => {
    const result = spawnSync(
      process.execPath,
      ["--require", HIDE_DENO, ...cliArgs("run", file, "--config", configPath)],
      { encoding: "utf8", timeout: 60_000, cwd: dir.path, env: { ...process.env, NO_COLOR: "1" } },
    );
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const typescript = program("echo.ts", 'return await tools.scripted.echo({ message: "no deno needed" });');

  it("the isolate tier runs TypeScript", () => {
    const result = run(typescript, config({}));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /no deno needed/);
  });

  it('sandbox.runtime "process" refuses to start, naming the package and how to install it', () => {
    const result = run(typescript, config({ runtime: "process" }));
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr, /npm package "deno", an optional dependency of toolscript, is missing/);
    assert.match(result.stderr, /`npm install deno`/);
    assert.match(result.stderr, /gateway\.runtime_unavailable/);
  });

  it("a Python program fails with the same reason", () => {
    const result = run(program("hello.py", "print('hello')"), config({}));
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr + result.stdout, /Python cannot run: .*`npm install deno`/);
  });
});
