import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Catalog } from "./catalog.ts";
import type { ToolDefinition } from "./types.ts";

interface FixtureTool extends ToolDefinition {
  server: string;
}
const fixture = JSON.parse(
  readFileSync(new URL("../../test/fixtures/catalog.json", import.meta.url), "utf8"),
) as {
  tools: FixtureTool[];
};

function loadFixture(): Catalog {
  const servers = [...new Set(fixture.tools.map((tool) => tool.server))];
  const catalog = new Catalog(servers);
  for (const server of servers) {
    catalog.setServerTools(
      server,
      fixture.tools.filter((tool) => tool.server === server),
    );
  }
  return catalog;
}

test("all 304 fixture tools are reachable under unique paths", () => {
  const catalog = loadFixture();
  const tools = catalog.tools();
  assert.equal(tools.length, 304);
  assert.equal(new Set(tools.map((tool) => tool.path)).size, 304);
  const names = fixture.tools.map((tool) => tool.name);
  const shared = new Set(names.filter((name, index) => names.indexOf(name) !== index));
  assert.equal(shared.size, 15, "the fixture has 15 names on several servers");
  for (const tool of tools) assert.match(tool.path, /^tools\.[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*$/);
});

test("find accepts original names, identifiers and call paths", () => {
  const catalog = loadFixture();
  const byOriginal = catalog.find("sequential-thinking/sequentialthinking");
  assert.equal(byOriginal?.serverId, "sequential_thinking");
  assert.equal(catalog.find("sequential_thinking.sequentialthinking"), byOriginal);
  assert.equal(catalog.find("tools.sequential_thinking.sequentialthinking"), byOriginal);
  assert.equal(catalog.find("filesystem/no_such_tool"), undefined);
  assert.ok(catalog.suggest("filesystem read").some((tool) => tool.server === "filesystem"));
});

test("server identifiers stay stable when tools change, and listeners hear it", () => {
  const catalog = new Catalog(["my-server", "my_server"]);
  const ids = catalog.servers().map((entry) => entry.serverId);
  assert.deepEqual(ids, ["my_server_2", "my_server"]);
  const heard: string[] = [];
  catalog.onChange((server) => heard.push(server));
  catalog.setServerTools("my-server", [{ name: "get-sum", inputSchema: { type: "object" } }]);
  assert.deepEqual(heard, ["my-server"]);
  assert.deepEqual(catalog.namespace(), {
    my_server_2: { server: "my-server", tools: { get_sum: "get-sum" } },
    my_server: { server: "my_server", tools: {} },
  });
  catalog.setServerTools("my_server", [{ name: "later", inputSchema: { type: "object" } }]);
  assert.deepEqual(
    catalog.namespace().my_server,
    { server: "my_server", tools: { later: "later" } },
    "rebuilt after a change",
  );
  assert.throws(() => catalog.setServerTools("unknown", []), /no server named "unknown"/);
});

test("suggest ranks by edit distance: everything/get-summ suggests get-sum first", () => {
  const catalog = new Catalog(["everything"]);
  const names = [
    "echo",
    "get-annotated-message",
    "get-env",
    "get-resource-links",
    "get-structured-content",
    "get-sum",
  ];
  catalog.setServerTools(
    "everything",
    names.map((name) => ({ name, inputSchema: { type: "object" as const } })),
  );
  assert.equal(catalog.suggest("everything/get-summ")[0]?.tool, "get-sum");
  assert.equal(catalog.suggest("tools.everything.get_summ")[0]?.tool, "get-sum");
  assert.equal(catalog.suggest("everythin/get-sum")[0]?.tool, "get-sum");
  assert.equal(catalog.suggest("everything/ech")[0]?.tool, "echo");
});
