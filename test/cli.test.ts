import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cliArgs, EVERYTHING_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const dir = tempDir("cli");
const goodConfig = join(dir.path, "good.json");
writeFileSync(
  goodConfig,
  JSON.stringify({ mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } } }),
);

function cli(...args: string[]) {
  return cliIn(dir.path, {}, ...args);
}

/** The CLI in `cwd`, with `env` over a copy of this environment without colour or vault settings. */
function cliIn(cwd: string, env: Record<string, string>, ...args: string[]) {
  const base = { ...process.env };
  // CI=true turns citty's colours off whatever FORCE_COLOR says: these tests decide colour themselves.
  for (const name of ["NO_COLOR", "FORCE_COLOR", "TOOLSCRIPT_VAULT_KEY", "CI"]) delete base[name];
  const result = spawnSync(process.execPath, cliArgs(...args), {
    encoding: "utf8",
    timeout: 30_000,
    cwd,
    env: { ...base, ...env },
    input: "",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `serve` on stdio in `cwd`, kept open until stderr matches `until` (servers join after serve
 * starts answering) or 30 s pass; then its stdin ends, and it exits as a client's disconnect ends it.
 */
function serveIn(
  cwd: string,
  until: RegExp,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const name of ["NO_COLOR", "FORCE_COLOR", "TOOLSCRIPT_VAULT_KEY"]) delete base[name];
  const child = spawn(process.execPath, cliArgs("serve"), { cwd, env: base });
  let stdout = "";
  let stderr = "";
  const end = () => child.stdin.end();
  const timer = setTimeout(end, 30_000);
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
    if (until.test(stderr)) end();
  });
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function folder(name: string, files: Record<string, unknown>): string {
  const path = join(dir.path, name);
  mkdirSync(path, { recursive: true });
  for (const [file, content] of Object.entries(files))
    writeFileSync(join(path, file), JSON.stringify(content));
  return path;
}

const ESC = "\u001b[";
const scripted = { command: process.execPath, args: [SCRIPTED_JS] };

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

  test("without --config, .mcp.json then toolscript.config.json is used, and stderr says which", () => {
    const claude = folder("claude", {
      ".mcp.json": { mcpServers: { claude: { type: "stdio", ...scripted } } },
      "toolscript.config.json": { mcpServers: { own: scripted } },
    });
    const list = cliIn(claude, {}, "tools", "list");
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stderr, /^toolscript: using \.mcp\.json$/m);
    assert.match(list.stdout, /^tools\.claude\.echo\s/m);
    assert.doesNotMatch(list.stdout, /tools\.own\./);
    // Claude Code's file usually lists this gateway too: read back by `serve`, that entry would start itself.
    const selfListed = folder("self-listed", {
      ".mcp.json": {
        mcpServers: { toolscript: { command: "toolscript", args: ["serve"] }, claude: scripted },
      },
    });
    const selfList = cliIn(selfListed, {}, "tools", "list");
    assert.equal(selfList.code, 0, selfList.stderr);
    assert.match(selfList.stderr, /leaving out server "toolscript" of \.mcp\.json: it is this gateway/);
    assert.doesNotMatch(selfList.stderr, /\] toolscript/);
    const own = folder("own", { "toolscript.config.json": { mcpServers: { own: scripted } } });
    const ownList = cliIn(own, {}, "tools", "list");
    assert.equal(ownList.code, 0, ownList.stderr);
    assert.match(ownList.stderr, /^toolscript: using toolscript\.config\.json$/m);
    assert.match(ownList.stdout, /^tools\.own\.echo\s/m);
  });

  test("run and tools list with no servers configured say so and exit 1", () => {
    const empty = folder("no-servers", {});
    const program = join(empty, "p.ts");
    writeFileSync(program, "return await tools.x.y({});");
    const run = cliIn(empty, {}, "run", program);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /no MCP servers configured/);
    assert.doesNotMatch(run.stderr, /Unknown server/);
    const list = cliIn(empty, {}, "tools", "list");
    assert.equal(list.code, 1);
    assert.match(list.stderr, /no MCP servers configured/);
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

  test("colour only on a terminal: piped help and errors carry no escape codes", () => {
    const help = cli("serve", "--help");
    assert.ok(!help.stdout.includes(ESC));
    assert.match(help.stdout, /USAGE/);
    assert.ok(!cli("frobnicate").stderr.includes(ESC));
    assert.ok(cliIn(dir.path, { FORCE_COLOR: "1" }, "serve", "--help").stdout.includes(ESC));
    assert.ok(!cliIn(dir.path, { FORCE_COLOR: "1", NO_COLOR: "1" }, "serve", "--help").stdout.includes(ESC));
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
