// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in plain strings are what these tests feed the config.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError } from "./errors.ts";
import { loadConfig } from "./load.ts";

let root: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), "toolscript-config-"));
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

async function dir(name: string, files: Record<string, string> = {}): Promise<string> {
  const path = join(root, name);
  await mkdir(path, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(path, file, ".."), { recursive: true });
    await writeFile(join(path, file), text);
  }
  return path;
}

async function loadError(options: Parameters<typeof loadConfig>[0]): Promise<ConfigError> {
  try {
    await loadConfig(options);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected loadConfig to throw");
}

describe("loadConfig", () => {
  it("returns the defaults, flagged, when cwd has no config file and no path is given", async () => {
    const cwd = await dir("empty");
    const config = await loadConfig({ cwd, env: {} });
    assert.equal(config.source, "defaults");
    assert.equal(config.file, undefined);
    assert.equal(config.baseDir, cwd);
    assert.deepEqual(config.servers, []);
    assert.equal(config.settings.storage.dir, join(cwd, ".toolscript"));
  });

  it("reads toolscript.config.json from cwd", async () => {
    const cwd = await dir("found", {
      "toolscript.config.json": JSON.stringify({ mcpServers: { fs: { command: "npx", args: ["-y", "x"] } } }),
    });
    const config = await loadConfig({ cwd, env: {} });
    assert.equal(config.source, "file");
    assert.equal(config.file, join(cwd, "toolscript.config.json"));
    assert.deepEqual(
      config.servers.map((s) => s.name),
      ["fs"],
    );
  });

  it("reads Claude Code's .mcp.json from cwd, before toolscript.config.json", async () => {
    const mcpJson = JSON.stringify({
      mcpServers: { claude: { type: "stdio", command: "node", args: ["server.js"], env: {} } },
    });
    const only = await dir("mcp-json", { ".mcp.json": mcpJson });
    const config = await loadConfig({ cwd: only, env: {} });
    assert.equal(config.file, join(only, ".mcp.json"));
    assert.deepEqual(
      config.servers.map((s) => s.name),
      ["claude"],
    );
    const both = await dir("both", {
      ".mcp.json": mcpJson,
      "toolscript.config.json": JSON.stringify({ mcpServers: { own: { command: "node" } } }),
    });
    assert.equal((await loadConfig({ cwd: both, env: {} })).file, join(both, ".mcp.json"));
    const broken = await dir("broken-mcp-json", { ".mcp.json": "{ nope" });
    assert.equal((await loadError({ cwd: broken, env: {} })).code, "config.parse");
  });

  it("fails with config.not_found for an explicit path that does not exist", async () => {
    const cwd = await dir("missing");
    const error = await loadError({ path: "nope.json", cwd, env: {} });
    assert.equal(error.code, "config.not_found");
    assert.equal(error.data.file, join(cwd, "nope.json"));
    assert.equal(error.message, `Config file not found: ${join(cwd, "nope.json")}`);
    assert.deepEqual(error.data.issues, [{ path: "", message: "file not found" }]);
  });

  it("resolves an explicit path from cwd, and cwd/storage.dir from the file's directory", async () => {
    const cwd = await dir("explicit");
    await dir("explicit/conf", {
      ".mcp.json": JSON.stringify({
        mcpServers: { local: { type: "stdio", command: "node", args: ["server.js"], cwd: "servers" } },
        toolscript: { storage: { dir: "state" } },
      }),
    });
    const config = await loadConfig({ path: "conf/.mcp.json", cwd, env: {} });
    assert.equal(config.file, join(cwd, "conf", ".mcp.json"));
    assert.equal(config.baseDir, join(cwd, "conf"));
    const [server] = config.servers;
    assert.equal(server?.kind === "stdio" && server.cwd, join(cwd, "conf", "servers"));
    assert.equal(config.settings.storage.dir, join(cwd, "conf", "state"));
  });

  it("expands variables from the env it is given, not process.env", async () => {
    const cwd = await dir("env", {
      "toolscript.config.json": JSON.stringify({
        mcpServers: {
          gh: { url: "https://gh.example.com/mcp", headers: { Authorization: "Bearer ${GH_TOKEN_T}" } },
        },
      }),
    });
    const config = await loadConfig({ cwd, env: { GH_TOKEN_T: "from-options" } });
    const [server] = config.servers;
    assert.equal(server?.kind === "http" && server.headers.Authorization, "Bearer from-options");

    const error = await loadError({ cwd, env: {} });
    assert.equal(error.code, "config.invalid");
    assert.deepEqual(error.data.issues, [
      { path: "mcpServers.gh.headers.Authorization", message: "environment variable GH_TOKEN_T is not set" },
    ]);
  });

  it("fails with config.parse and the line and column of a JSON syntax error", async () => {
    const text = '{\n  "mcpServers": {\n    "fs": { "command": "npx" },\n  }\n}\n';
    const cwd = await dir("badjson", { "toolscript.config.json": text });
    const error = await loadError({ cwd, env: {} });
    assert.equal(error.code, "config.parse");
    assert.equal(error.data.line, 3);
    assert.equal(error.data.column, 31);
    assert.deepEqual(error.data.issues, [
      { path: "", message: "line 3, column 31: trailing comma is not allowed in JSON" },
    ]);
    assert.equal(
      error.message,
      `Invalid JSON in config file ${join(cwd, "toolscript.config.json")}: line 3, column 31: trailing comma is not allowed in JSON`,
    );
    assert.ok(error.cause instanceof SyntaxError);
  });

  it("fails with config.invalid naming the file and listing every issue", async () => {
    const cwd = await dir("invalid", {
      "toolscript.config.json": JSON.stringify({
        mcpServers: { github: { command: 1 } },
        toolscript: { sandbox: { timeoutMS: 10 } },
      }),
    });
    const error = await loadError({ cwd, env: {} });
    assert.equal(error.code, "config.invalid");
    assert.equal(
      error.message,
      `Invalid config in ${join(cwd, "toolscript.config.json")}:\n` +
        "  mcpServers.github.command: expected string, received number\n" +
        '  toolscript.sandbox.timeoutMS: unknown key, did you mean "timeoutMs"?',
    );
  });

  it("fails with config.read when the path is a directory, even for the default name", async () => {
    const cwd = await dir("isdir");
    await dir("isdir/toolscript.config.json");
    const implicit = await loadError({ cwd, env: {} });
    assert.equal(implicit.code, "config.read");
    const explicit = await loadError({ path: ".", cwd, env: {} });
    assert.equal(explicit.code, "config.read");
    assert.match(explicit.message, /is a directory, not a file$/);
  });
});
