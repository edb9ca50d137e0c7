import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cliArgs, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const dir = tempDir("cli");
const goodConfig = join(dir.path, "good.json");
writeFileSync(
  goodConfig,
  JSON.stringify({ mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } } }),
);

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, cliArgs(...args), {
    encoding: "utf8",
    timeout: 30_000,
    cwd: dir.path,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("toolscript CLI", () => {
  after(() => dir.remove());

  test("--help works at every level and goes to stdout", () => {
    const root = cli("--help");
    assert.equal(root.code, 0);
    assert.match(root.stdout, /serve/);
    assert.match(root.stdout, /tools/);
    const tools = cli("tools", "--help");
    assert.match(tools.stdout, /list/);
    assert.match(tools.stdout, /show/);
    const serve = cli("serve", "--help");
    assert.match(serve.stdout, /--http/);
  });

  test("a broken config names every bad field on stderr, exit 1, stdout empty", () => {
    const bad = join(dir.path, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        mcpServers: { github: { command: 42 }, web: { url: "not a url" } },
        toolscript: { sandbox: { timeoutMS: 5 } },
      }),
    );
    const result = cli("tools", "list", "--config", bad);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /mcpServers\.github\.command: /);
    assert.match(result.stderr, /mcpServers\.web\.url: /);
    assert.match(result.stderr, /toolscript\.sandbox\.timeoutMS: unknown key, did you mean "timeoutMs"\?/);
  });

  test("a missing config file is an error when named explicitly", () => {
    const result = cli("tools", "list", "--config", "nope.json");
    assert.equal(result.code, 1);
    assert.match(result.stderr, /nope\.json/);
  });

  test("tools list and tools show", () => {
    const list = cli("tools", "list", "--config", goodConfig);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^tools\.scripted\.echo\s+Echo the message back\.$/m);
    assert.match(list.stderr, /\[ok\] scripted/);
    const json = JSON.parse(cli("tools", "list", "--config", goodConfig, "--json").stdout) as Array<{
      tool: string;
    }>;
    assert.ok(json.some((row) => row.tool === "add"));
    const show = cli("tools", "show", "scripted/add", "--config", goodConfig);
    assert.equal(show.code, 0);
    assert.match(show.stdout, /export declare function add\(input: AddInput\): Promise<AddOutput>;/);
    const found = cli("tools", "search", "add two numbers", "--config", goodConfig, "--limit", "2");
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout.split("\n")[0] ?? "", /^tools\.scripted\.add\(/);
    const missing = cli("tools", "show", "scripted/ad", "--config", goodConfig);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no tool named "scripted\/ad"/);
  });

  test("run prints the program's logs and result", () => {
    const program = join(dir.path, "program.ts");
    writeFileSync(
      program,
      'const r: { sum: number } = await tools.scripted.add({ a: 2, b: 40 });\nconsole.log("sum is", r.sum);\nreturn r;',
    );
    const result = cli("run", program, "--config", goodConfig);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'sum is 42\n{\n  "sum": 42\n}\n');
    assert.match(result.stderr, /1 tool calls/);
    const failing = join(dir.path, "failing.ts");
    writeFileSync(failing, "\n\nthrow new Error('boom');");
    const failed = cli("run", failing, "--config", goodConfig);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /Error \(runtime\) at line 3.*boom/);
  });

  test("bad arguments get a clear error", () => {
    const address = cli("serve", "--http", "localhost", "--config", goodConfig);
    assert.equal(address.code, 1);
    assert.match(address.stderr, /--http expects HOST:PORT/);
    const unknown = cli("frobnicate");
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /frobnicate/);
  });

  test("HTTP mode refuses to start without a token", () => {
    mkdirSync(join(dir.path, "empty"), { recursive: true });
    const result = cli("serve", "--http", "127.0.0.1:0", "--config", goodConfig);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /needs a bearer token/);
  });
});
