import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "./errors.ts";
import type { ConfigIssue } from "./issues.ts";
import { parseConfig, validateConfig } from "./parse.ts";

const options = { baseDir: "/project", env: {} };
const servers = {
  everything: { command: "node", args: ["everything.js"] },
  github: { url: "https://example.invalid/mcp" },
  "my server": { command: "node" },
};

function issuesOf(json: unknown): ConfigIssue[] {
  const result = validateConfig(json, options);
  assert.equal(result.ok, false, "expected the config to be invalid");
  return result.ok ? [] : result.issues;
}

describe("toolscript.passThrough", () => {
  it("is empty by default", () => {
    assert.deepEqual(parseConfig({ mcpServers: servers }, options).settings.passThrough, {});
  });

  it('fills the default prefix <server>__ and keeps an explicit one, "" included, in file order', () => {
    const config = parseConfig(
      { mcpServers: servers, toolscript: { passThrough: { github: {}, everything: { prefix: "" } } } },
      options,
    );
    assert.deepEqual(config.settings.passThrough, {
      github: { prefix: "github__" },
      everything: { prefix: "" },
    });
    assert.deepEqual(Object.keys(config.settings.passThrough), ["github", "everything"]);
  });

  it("names an unknown server and suggests the close ones", () => {
    assert.deepEqual(issuesOf({ mcpServers: servers, toolscript: { passThrough: { everthing: {} } } }), [
      {
        path: "toolscript.passThrough.everthing",
        message: 'unknown server "everthing": not in mcpServers, did you mean "everything"?',
      },
    ]);
    assert.deepEqual(issuesOf({ mcpServers: servers, toolscript: { passThrough: { zzz: {} } } }), [
      {
        path: "toolscript.passThrough.zzz",
        message: 'unknown server "zzz": not in mcpServers (servers: everything, github, my server)',
      },
    ]);
    assert.deepEqual(issuesOf({ toolscript: { passThrough: { github: {} } } }), [
      {
        path: "toolscript.passThrough.github",
        message: 'unknown server "github": not in mcpServers (mcpServers is empty)',
      },
    ]);
  });

  it("reports an unknown server even when another part of the config is broken", () => {
    const issues = issuesOf({
      mcpServers: { github: { command: 42 } },
      toolscript: { passThrough: { gitub: {} } },
    });
    assert.deepEqual(
      issues.map((issue) => issue.path),
      ["toolscript.passThrough.gitub", "mcpServers.github.command"],
    );
    assert.match(issues[0]?.message ?? "", /did you mean "github"\?/);
  });

  it("refuses a prefix that cannot start an MCP tool name, and says which", () => {
    assert.deepEqual(
      issuesOf({ mcpServers: servers, toolscript: { passThrough: { github: { prefix: "gh/" } } } }),
      [
        {
          path: "toolscript.passThrough.github.prefix",
          message: `"gh/" may hold only letters, digits, '_', '-' and '.' (the characters of an MCP tool name)`,
        },
      ],
    );
    assert.match(
      issuesOf({
        mcpServers: servers,
        toolscript: { passThrough: { github: { prefix: "x".repeat(65) } } },
      })[0]?.message ?? "",
      /at most 64 characters/,
    );
  });

  it("asks for an explicit prefix when the server's name makes an invalid default", () => {
    assert.deepEqual(issuesOf({ mcpServers: servers, toolscript: { passThrough: { "my server": {} } } }), [
      {
        path: 'toolscript.passThrough["my server"]',
        message: `the default prefix "my server__" may hold only letters, digits, '_', '-' and '.' (the characters of an MCP tool name); set "prefix" explicitly`,
      },
    ]);
    const fixed = parseConfig(
      { mcpServers: servers, toolscript: { passThrough: { "my server": { prefix: "my_server." } } } },
      options,
    );
    assert.deepEqual(fixed.settings.passThrough, { "my server": { prefix: "my_server." } });
  });

  it("refuses unknown keys and wrong types inside an entry", () => {
    assert.deepEqual(
      issuesOf({ mcpServers: servers, toolscript: { passThrough: { github: { prefx: "g_" } } } }),
      [{ path: "toolscript.passThrough.github.prefx", message: 'unknown key, did you mean "prefix"?' }],
    );
    assert.deepEqual(
      issuesOf({ mcpServers: servers, toolscript: { passThrough: { github: { prefix: 1 } } } }),
      [{ path: "toolscript.passThrough.github.prefix", message: "expected string, received number" }],
    );
    assert.deepEqual(issuesOf({ mcpServers: servers, toolscript: { passThrough: ["github"] } }), [
      { path: "toolscript.passThrough", message: "expected object, received array" },
    ]);
  });

  it("suggests passThrough for a near-miss of the key", () => {
    assert.throws(
      () => parseConfig({ mcpServers: servers, toolscript: { passthrough: {} } }, options),
      (error: unknown) =>
        error instanceof ConfigError &&
        /toolscript\.passthrough: unknown key, did you mean "passThrough"\?/.test(error.message),
    );
  });
});
