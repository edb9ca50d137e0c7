import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  assignIdentifiers,
  buildCatalogTools,
  compareStrings,
  toIdentifier,
  toPascalCase,
} from "./naming.ts";
import type { ToolDefinition } from "./types.ts";

describe("toIdentifier", () => {
  test("replaces characters that cannot appear in an identifier", () => {
    assert.equal(toIdentifier("get-sum"), "get_sum");
    assert.equal(toIdentifier("a.b/c"), "a_b_c");
    assert.equal(toIdentifier("a - b"), "a_b");
    assert.equal(toIdentifier("keep__double"), "keep__double");
    assert.equal(toIdentifier("-lead"), "_lead");
    assert.equal(toIdentifier("read_file"), "read_file");
    assert.equal(toIdentifier("camelCase9"), "camelCase9");
  });

  test("never starts with a digit and is never empty", () => {
    assert.equal(toIdentifier("2fa"), "_2fa");
    assert.equal(toIdentifier("42"), "_42");
    assert.equal(toIdentifier(""), "_");
    assert.equal(toIdentifier("..."), "_");
  });

  test("suffixes reserved words and names that clash with Object.prototype or thenables", () => {
    for (const word of ["delete", "class", "new", "return", "await", "yield", "eval", "arguments", "enum"]) {
      assert.equal(toIdentifier(word), `${word}_`);
    }
    assert.equal(toIdentifier("__proto__"), "__proto___");
    assert.equal(toIdentifier("constructor"), "constructor_");
    assert.equal(toIdentifier("toString"), "toString_");
    assert.equal(toIdentifier("hasOwnProperty"), "hasOwnProperty_");
    assert.equal(toIdentifier("then"), "then_");
    assert.equal(toIdentifier("Delete"), "Delete");
    assert.equal(toIdentifier("deleted"), "deleted");
  });

  test("folds accents and replaces other non-ASCII characters", () => {
    assert.equal(toIdentifier("café"), "cafe");
    assert.equal(toIdentifier("Ünïcödé-tool"), "Unicode_tool");
    assert.equal(toIdentifier("日本語"), "_");
    assert.equal(toIdentifier("search_日本"), "search__");
    assert.equal(toIdentifier("emoji🚀launch"), "emoji_launch");
  });

  test("is deterministic", () => {
    assert.equal(toIdentifier("a b-c"), toIdentifier("a b-c"));
  });
});

describe("assignIdentifiers", () => {
  test("gives every distinct name a unique identifier", () => {
    const ids = assignIdentifiers(["get-sum", "get.sum", "get sum", "other"]);
    assert.deepEqual(
      [...ids],
      [
        ["get sum", "get_sum"],
        ["get-sum", "get_sum_2"],
        ["get.sum", "get_sum_3"],
        ["other", "other"],
      ].sort((a, b) => compareStrings(a[0]!, b[0]!)),
    );
  });

  test("does not depend on the order of the names", () => {
    const names = ["get-sum", "get_sum", "get.sum", "a/b", "a-b", "a_b_2", "then", "then_"];
    const reference = assignIdentifiers(names);
    const reversed = assignIdentifiers([...names].reverse());
    const shuffled = assignIdentifiers([
      "a_b_2",
      "then_",
      "get.sum",
      "a-b",
      "then",
      "get_sum",
      "a/b",
      "get-sum",
    ]);
    for (const name of names) {
      assert.equal(reversed.get(name), reference.get(name), name);
      assert.equal(shuffled.get(name), reference.get(name), name);
    }
  });

  test("a name that already is the identifier keeps it; suffixes skip identifiers in use", () => {
    const ids = assignIdentifiers(["get-sum", "get_sum", "a-b", "a/b", "a_b_2", "then", "then_"]);
    assert.equal(ids.get("get_sum"), "get_sum");
    assert.equal(ids.get("get-sum"), "get_sum_2");
    assert.equal(ids.get("a_b_2"), "a_b_2");
    assert.equal(ids.get("a-b"), "a_b");
    assert.equal(ids.get("a/b"), "a_b_3");
    assert.equal(ids.get("then_"), "then_");
    assert.equal(ids.get("then"), "then__2");
    assert.equal(new Set(ids.values()).size, ids.size);
  });

  test("collapses repeated names", () => {
    const ids = assignIdentifiers(["x", "x", "y"]);
    assert.deepEqual(
      [...ids],
      [
        ["x", "x"],
        ["y", "y"],
      ],
    );
  });
});

describe("toPascalCase", () => {
  test("joins identifier parts into a type name", () => {
    assert.equal(toPascalCase("read_file"), "ReadFile");
    assert.equal(toPascalCase("get_sum_2"), "GetSum2");
    assert.equal(toPascalCase("API_post_search"), "APIPostSearch");
    assert.equal(toPascalCase("camelCase"), "CamelCase");
    assert.equal(toPascalCase("delete_"), "Delete");
    assert.equal(toPascalCase("__proto___"), "Proto");
    assert.equal(toPascalCase("_2fa"), "T2fa");
    assert.equal(toPascalCase("_"), "T");
  });
});

describe("buildCatalogTools", () => {
  const def = (name: string): ToolDefinition => ({ name, inputSchema: { type: "object" } });

  test("fills ids and paths, sorted by tool identifier", () => {
    const tools = buildCatalogTools("my-server", "my_server", [def("zeta"), def("get-sum"), def("get_sum")]);
    assert.deepEqual(
      tools.map((t) => [t.server, t.tool, t.serverId, t.toolId, t.path]),
      [
        ["my-server", "get_sum", "my_server", "get_sum", "tools.my_server.get_sum"],
        ["my-server", "get-sum", "my_server", "get_sum_2", "tools.my_server.get_sum_2"],
        ["my-server", "zeta", "my_server", "zeta", "tools.my_server.zeta"],
      ],
    );
    assert.equal(tools[0]?.definition.name, "get_sum");
  });

  test("keeps the first definition of a name listed twice", () => {
    const first = { ...def("dup"), description: "first" };
    const tools = buildCatalogTools("s", "s", [first, { ...def("dup"), description: "second" }]);
    assert.equal(tools.length, 1);
    assert.equal(tools[0]?.definition, first);
  });
});
