import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildCatalogTools } from "../naming.ts";
import { renderServerIndex } from "./server-index.ts";
import { renderToolDeclaration } from "./tool-declaration.ts";
import { renderTree } from "./tree.ts";

describe("renderTree", () => {
  const fs = buildCatalogTools("filesystem", "filesystem", [
    { name: "write_file", description: "Writes.", inputSchema: { type: "object" } },
    { name: "read_file", description: "Reads.", inputSchema: { type: "object" } },
  ]);
  const other = buildCatalogTools("a-server", "a_server", [{ name: "go", inputSchema: { type: "object" } }]);

  test("lays out the root, one index per server and one file per tool", () => {
    const tree = renderTree([...fs, ...other]);
    assert.deepEqual(
      [...tree.keys()],
      [
        "index.d.ts",
        "servers/a_server/index.d.ts",
        "servers/a_server/go.d.ts",
        "servers/filesystem/index.d.ts",
        "servers/filesystem/read_file.d.ts",
        "servers/filesystem/write_file.d.ts",
      ],
    );
    assert.equal(tree.get("servers/filesystem/index.d.ts"), renderServerIndex("filesystem", fs));
    assert.equal(tree.get("servers/filesystem/read_file.d.ts"), renderToolDeclaration(fs[0]!));
    assert.match(
      tree.get("index.d.ts") ?? "",
      /a_server: typeof import\("\.\/servers\/a_server\/index\.js"\);/,
    );
  });

  test("does not depend on the order of the tools", () => {
    const forward = renderTree([...fs, ...other]);
    const backward = renderTree([...other, ...fs].reverse());
    assert.deepEqual([...backward], [...forward]);
  });
});
