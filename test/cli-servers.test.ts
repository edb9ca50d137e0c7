import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cliHarness } from "./helpers/cli-harness.ts";
import { EVERYTHING_JS, SCRIPTED_JS } from "./helpers/servers.ts";

const { dir, goodConfig, cli, cliIn, serveIn, folder } = cliHarness("cli-servers");
const scripted = { command: process.execPath, args: [SCRIPTED_JS] };

describe("toolscript CLI with servers: tools, run, serve", () => {
  after(() => dir.remove());

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
    assert.match(missing.stderr, /no tool named "scripted\/ad"; did you mean scripted\/add\b/);
  });

  test("did you mean ranks by edit distance: everything/get-summ suggests get-sum", () => {
    const config = join(folder("everything", { "toolscript.config.json": {} }), "everything.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] } },
      }),
    );
    const result = cli("tools", "show", "everything/get-summ", "--config", config);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /no tool named "everything\/get-summ"; did you mean everything\/get-sum[,?]/);
  });

  test("tools list exits 1 when every server failed, still saying why", () => {
    const broken = folder("broken", {
      "toolscript.config.json": {
        mcpServers: { gone: { command: process.execPath, args: [join(dir.path, "missing-server.mjs")] } },
        toolscript: { upstream: { restart: { maxRetries: 0 } } },
      },
    });
    const list = cliIn(broken, {}, "tools", "list");
    assert.equal(list.code, 1, list.stderr);
    assert.equal(list.stdout, "");
    assert.match(list.stderr, /\[(XX|!!)\] gone/);
    assert.match(list.stderr, /no server is ready/);
  });

  test("serve prints one status line per server, and the vault-key warning once, only with PII on", async () => {
    const twoServers = {
      mcpServers: { first: scripted, second: scripted },
      toolscript: { storage: { dir: join(dir.path, "serve-store") } },
    };
    const piiOn = folder("serve-pii", { "toolscript.config.json": twoServers });
    const bothReady = /first: ready[\s\S]*second: ready|second: ready[\s\S]*first: ready/;
    const on = await serveIn(piiOn, bothReady);
    assert.equal(on.code, 0, on.stderr);
    assert.equal(on.stdout, "");
    for (const server of ["first", "second"]) {
      const lines = on.stderr.split("\n").filter((line) => new RegExp(`\\b${server}\\b`).test(line));
      assert.equal(lines.length, 1, `status lines of ${server}:\n${lines.join("\n")}`);
      assert.match(lines[0] ?? "", /ready, \d+ tools/);
    }
    assert.equal(on.stderr.match(/TOOLSCRIPT_VAULT_KEY/g)?.length, 1, on.stderr);
    const piiOff = folder("serve-no-pii", {
      "toolscript.config.json": {
        ...twoServers,
        toolscript: { ...twoServers.toolscript, privacy: { pii: false } },
      },
    });
    const off = await serveIn(piiOff, bothReady);
    assert.equal(off.code, 0, off.stderr);
    assert.doesNotMatch(off.stderr, /TOOLSCRIPT_VAULT_KEY/);
    assert.doesNotMatch(off.stderr, /saved -|-\d+(\.\d+)?%/);
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

  test("run --no-typecheck runs a program the type check refuses", () => {
    const program = join(dir.path, "mistyped.ts");
    writeFileSync(program, 'const n: number = "forty-two" as unknown as string;\nreturn n;');
    const checked = cli("run", program, "--config", goodConfig);
    assert.equal(checked.code, 1);
    assert.match(checked.stderr, /\(type\)/);
    const unchecked = cli("run", program, "--config", goodConfig, "--no-typecheck");
    assert.equal(unchecked.code, 0, unchecked.stderr);
    assert.equal(unchecked.stdout, "forty-two\n");
  });
});
