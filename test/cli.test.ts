import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cliHarness } from "./helpers/cli-harness.ts";
import { SCRIPTED_JS } from "./helpers/servers.ts";

const { dir, goodConfig, cli, cliIn, folder } = cliHarness("cli");
const ESC = "\u001b[";
const scripted = { command: process.execPath, args: [SCRIPTED_JS] };

describe("toolscript CLI: help, config and arguments", () => {
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

  test("colour only on a terminal: piped help and errors carry no escape codes", () => {
    const help = cli("serve", "--help");
    assert.ok(!help.stdout.includes(ESC));
    assert.match(help.stdout, /USAGE/);
    assert.ok(!cli("frobnicate").stderr.includes(ESC));
    assert.ok(cliIn(dir.path, { FORCE_COLOR: "1" }, "serve", "--help").stdout.includes(ESC));
    assert.ok(!cliIn(dir.path, { FORCE_COLOR: "1", NO_COLOR: "1" }, "serve", "--help").stdout.includes(ESC));
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
