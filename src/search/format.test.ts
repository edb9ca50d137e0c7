import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { countTokens } from "@anthropic-ai/tokenizer";
import { Catalog } from "../catalog/catalog.ts";
import type { ToolDefinition } from "../catalog/types.ts";
import { syncIndexWithCatalog } from "./catalog-sync.ts";
import { briefParams, formatSearchResults, matchNote } from "./format.ts";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { searchTools } from "./tool-results.ts";

const readFile: ToolDefinition = {
  name: "read-file",
  description: "Read a file from disk. Returns its text.",
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string" },
      encoding: { enum: ["utf8", "base64"] },
      lines: { type: "array", items: { type: "integer" } },
    },
    required: ["path"],
  },
};
const echo: ToolDefinition = {
  name: "echo",
  description: "Echoes a message",
  inputSchema: { type: "object" },
};

function setup() {
  const catalog = new Catalog(["my-fs", "util"]);
  catalog.setServerTools("my-fs", [readFile]);
  catalog.setServerTools("util", [echo]);
  // Without the words borrowed from similar known tools, which change with every rebuilt table.
  const index = new LexicalSearchIndex({ similarTools: false });
  const stop = syncIndexWithCatalog(index, catalog);
  return { catalog, index, stop };
}

describe("searchTools", () => {
  it("returns the original names, the call path, the first sentence and a score", () => {
    const { catalog, index } = setup();
    const [match] = searchTools(index, catalog, "read file", { limit: 1 });
    assert.deepEqual(match?.result, {
      server: "my-fs",
      tool: "read-file",
      path: "tools.my_fs.read_file",
      description: "Read a file from disk.",
      score: match?.result.score,
      matched: ["read", "file"],
    });
    assert.ok((match?.result.score ?? 0) > 0);
  });

  it("follows the catalog: list_changed replaces a server's tools, a disconnect removes them", () => {
    const { catalog, index, stop } = setup();
    catalog.setServerTools("util", [{ ...echo, name: "shout", description: "Shouts a message" }]);
    assert.deepEqual(
      searchTools(index, catalog, "message").map((match) => match.result.tool),
      ["shout"],
    );
    catalog.setServerTools("util", []);
    assert.deepEqual(searchTools(index, catalog, "message"), []);
    stop();
    catalog.setServerTools("util", [echo]);
    assert.deepEqual(searchTools(index, catalog, "echoes"), []);
  });
});

describe("formatSearchResults", () => {
  it("writes one line per tool for `name` and `summary`", () => {
    const { catalog, index } = setup();
    const matches = searchTools(index, catalog, "read file", { limit: 1 });
    assert.equal(formatSearchResults(matches, "name"), "tools.my_fs.read_file — Read a file from disk.");
    assert.equal(
      formatSearchResults(matches, "summary"),
      'tools.my_fs.read_file({ path: string, encoding?: "utf8"|"base64", lines?: number[] }) — Read a file from disk.',
    );
    assert.equal(formatSearchResults([], "summary"), "No matching tools.");
  });

  it("notes a result that matched fewer request words than the results together, and one found by meaning", () => {
    const { catalog, index } = setup();
    // Which of the two ranks first is the ranking's business, not the notes'.
    const matches = searchTools(index, catalog, "read the message", { limit: 2 }).sort((a, b) =>
      a.result.path.localeCompare(b.result.path),
    );
    assert.deepEqual(
      matches.map((match) => match.result.matched),
      [["read"], ["message"]],
    );
    assert.equal(
      formatSearchResults(matches, "name"),
      [
        "tools.my_fs.read_file — Read a file from disk. (matched: read)",
        "tools.util.echo — Echoes a message (matched: message)",
      ].join("\n"),
    );
    const [read] = matches;
    assert.ok(read);
    const byMeaning = { ...read, result: { ...read.result, matched: [] } };
    assert.match(formatSearchResults([read, byMeaning], "name"), /\n.* \(by meaning\)$/);
    assert.match(
      formatSearchResults([byMeaning], "declaration"),
      /^\/\/ tools\.my_fs\.read_file \(by meaning\)\n/,
    );
    assert.equal(matchNote({ matched: ["send", "email"] }, 2), "");
    assert.equal(matchNote({ matched: ["email"] }, 2), " (matched: email)");
  });

  it("gives the full declaration for `declaration`", () => {
    const { catalog, index } = setup();
    const text = formatSearchResults(searchTools(index, catalog, "read file", { limit: 1 }), "declaration");
    assert.match(text, /^\/\/ tools\.my_fs\.read_file\n/);
    assert.match(text, /export declare function read_file\(input: ReadFileInput\): Promise<unknown>;/);
  });

  it("briefs a schema without properties as no arguments", () => {
    assert.equal(briefParams({ type: "object" }), "()");
  });

  it("keeps a 5-tool summary answer over the real fixture catalog near 300 tokens", () => {
    const fixture = JSON.parse(
      readFileSync(new URL("../../test/fixtures/catalog.json", import.meta.url), "utf8"),
    ) as { tools: (ToolDefinition & { server: string })[] };
    const servers = [...new Set(fixture.tools.map((tool) => tool.server))];
    const catalog = new Catalog(servers);
    for (const server of servers) {
      catalog.setServerTools(
        server,
        fixture.tools.filter((tool) => tool.server === server),
      );
    }
    const index = new LexicalSearchIndex();
    syncIndexWithCatalog(index, catalog);
    for (const query of ["read a file", "create a github issue", "take a screenshot of the page"]) {
      const matches = searchTools(index, catalog, query, { limit: 5 });
      assert.equal(matches.length, 5);
      const tokens = countTokens(formatSearchResults(matches, "name"));
      assert.ok(tokens <= 300, `${query}: ${tokens} tokens`);
    }
  });
});
