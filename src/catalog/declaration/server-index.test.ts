import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CatalogTool } from "../types.ts";
import { renderServerIndex, renderToolsGlobal } from "./server-index.ts";

function tool(
  server: string,
  serverId: string,
  name: string,
  toolId: string,
  description?: string,
): CatalogTool {
  return {
    server,
    serverId,
    tool: name,
    toolId,
    path: `tools.${serverId}.${toolId}`,
    definition: {
      name,
      inputSchema: { type: "object" },
      ...(description === undefined ? {} : { description }),
    },
  };
}

describe("renderServerIndex", () => {
  test("one re-export per tool, sorted, with a one-line summary", () => {
    const tools = [
      tool("my-server", "my_server", "write", "write", "Writes a file.\nSecond line. More."),
      tool("my-server", "my_server", "get-sum", "get_sum", "Adds two numbers. Returns the sum."),
      tool("my-server", "my_server", "silent", "silent"),
    ];
    assert.equal(
      renderServerIndex("my_server", tools),
      [
        '// tools.my_server (server "my-server"): 3 tools',
        'export { get_sum, get_sum as "get-sum" } from "./get_sum.js"; // Adds two numbers.',
        'export { silent } from "./silent.js";',
        'export { write } from "./write.js"; // Writes a file.',
        "",
      ].join("\n"),
    );
  });

  test("same names: no original note; empty server stays a module", () => {
    assert.equal(
      renderServerIndex("fs", [tool("fs", "fs", "read", "read", "Reads.")]),
      '// tools.fs: 1 tool\nexport { read } from "./read.js"; // Reads.\n',
    );
    assert.equal(renderServerIndex("none", []), "// tools.none: 0 tools\nexport {};\n");
  });
});

describe("renderToolsGlobal", () => {
  test("declares the global tools object, sorted by identifier", () => {
    assert.equal(
      renderToolsGlobal([
        { server: "my-server", serverId: "my_server" },
        { server: "filesystem", serverId: "filesystem" },
      ]),
      [
        "/** The MCP servers' tools: `await tools.<server>.<tool>(input)`. */",
        "declare const tools: {",
        '  filesystem: typeof import("./servers/filesystem/index.js");',
        '  /** server "my-server" */',
        '  my_server: typeof import("./servers/my_server/index.js");',
        '  "my-server": typeof import("./servers/my_server/index.js");',
        "};",
        "",
      ].join("\n"),
    );
  });

  test("an original name that is another entry's identifier stays that entry's", () => {
    const tools = [
      tool("s", "s", "get_sum", "get_sum"),
      tool("s", "s", "get-sum", "get_sum_2"),
      tool("s", "s", "get.sum", "get_sum_3"),
    ];
    assert.deepEqual(renderServerIndex("s", tools).split("\n").slice(1, 4), [
      'export { get_sum } from "./get_sum.js";',
      'export { get_sum_2, get_sum_2 as "get-sum" } from "./get_sum_2.js";',
      'export { get_sum_3, get_sum_3 as "get.sum" } from "./get_sum_3.js";',
    ]);
    assert.doesNotMatch(
      renderToolsGlobal([
        { server: "a_b", serverId: "a_b_2" },
        { server: "a-b", serverId: "a_b" },
      ]),
      /^ {2}"a_b":/m,
    );
  });

  test("no servers", () => {
    assert.equal(renderToolsGlobal([]), "declare const tools: Record<string, never>;\n");
  });
});
