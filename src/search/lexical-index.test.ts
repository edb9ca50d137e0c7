import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import type { ToolDefinition } from "../catalog/types.ts";
import { toolDocument } from "./documents.ts";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { MemorySearchIndex } from "./memory-index.ts";
import { toolDoc } from "./tool-doc.fixture.ts";
import type { SearchIndex } from "./types.ts";

const fixture = JSON.parse(
  readFileSync(new URL("../../test/fixtures/catalog.json", import.meta.url), "utf8"),
) as { tools: (ToolDefinition & { server: string })[] };
const fixtureDocs = fixture.tools.map((tool) => toolDocument(tool.server, tool));

const doc = (server: string, name: string, description: string) => toolDoc(name, description, { server });

const top = (index: SearchIndex, query: string, limit = 3) =>
  index.search(query, { limit }).map((hit) => hit.id);

describe("LexicalSearchIndex on the fixture catalog", () => {
  const index = new LexicalSearchIndex();
  index.add(fixtureDocs);

  it("ranks the tool a request names first", () => {
    assert.match(top(index, "read a text file")[0] ?? "", /^filesystem\/read_(text_)?file$/);
    assert.equal(top(index, "create an issue on github")[0], "github-archived/create_issue");
    assert.match(top(index, "take a screenshot of the page")[0] ?? "", /screenshot/);
    assert.equal(top(index, "run a SQL query on postgres")[0], "postgres-archived/query");
    assert.match(
      top(index, "send a message to a slack channel")[0] ?? "",
      /^slack-archived[^/]*\/slack_post_message$/,
    );
  });

  it("matches identifiers split into words and stemmed", () => {
    assert.ok(top(index, "listing directories", 5).includes("filesystem/list_directory"));
  });

  it("scores in 0..1, best first, and honours limit and minScore", () => {
    const hits = index.search("read file", { limit: 5 });
    assert.equal(hits.length, 5);
    for (const hit of hits) assert.ok(hit.score > 0 && hit.score <= 1);
    // Results come in score order (spreading across the request's words is off by default).
    for (const [at, hit] of hits.entries()) if (at > 0) assert.ok(hit.score <= (hits[at - 1]?.score ?? 1));
    const threshold = hits[0]?.score ?? 1;
    const strong = index.search("read file", { limit: 50, minScore: threshold });
    assert.ok(strong.length >= 1 && strong.length < 50, `got ${strong.length}`);
    assert.ok(strong.every((hit) => hit.score >= threshold));
  });

  it("finds nothing for a query of stop words or unknown words", () => {
    assert.deepEqual(index.search("the of and"), []);
    assert.deepEqual(index.search("zzyzxqua"), []);
  });
});

describe("LexicalSearchIndex partial matches", () => {
  it("finds a tool by a word's beginning, with terms added after a search", () => {
    // Word vectors off: only the lexical match can find it.
    const index = new LexicalSearchIndex({ wordVectors: false });
    index.add([doc("s", "weather", "Forecast for a city.")]);
    assert.deepEqual(top(index, "crypto"), []);
    index.add([doc("s", "coin_quotes", "Quotes of cryptocurrencies.")]);
    assert.deepEqual(top(index, "crypto"), ["s/coin_quotes"]);
  });

  it("counts a guess at a word below a known synonym", () => {
    // "erase" is a domain synonym of "delete"; "kube" only begins "kubernetes" (the domain
    // terms, which know it as an abbreviation, are off).
    const index = new LexicalSearchIndex({ wordVectors: false, lexicon: false, domainTerms: false });
    index.add([doc("a", "delete_item", "Delete an item."), doc("b", "kubernetes_item", "Kubernetes item.")]);
    assert.deepEqual(top(index, "kube erase", 2), ["a/delete_item", "b/kubernetes_item"]);
    assert.deepEqual(top(index, "kubernetes erase", 2), ["b/kubernetes_item", "a/delete_item"]);
  });

  it("finds a tool by a word its server's name joins to another (the vocabulary of the word vectors)", () => {
    const index = new LexicalSearchIndex();
    index.add([
      doc("datagov", "package_search", "Search packages of open datasets."),
      doc("s", "find_recipes", "Find recipes by ingredient."),
    ]);
    assert.deepEqual(top(index, "gov", 1), ["datagov/package_search"]);
    assert.equal(top(new LexicalSearchIndex({ wordVectors: false }), "gov").length, 0);
    // And a compound in the query: "howtocook" is how + to + cook.
    index.add([doc("s", "cook_meal", "Step-by-step instructions for a dish.")]);
    assert.deepEqual(top(index, "howtocook", 1), ["s/cook_meal"]);
  });
});

describe("LexicalSearchIndex updates", () => {
  it("replaces one server's documents and leaves the others", () => {
    const index = new LexicalSearchIndex({ lexicon: false });
    index.add([
      doc("a", "alpha_tool", "Reads weather stations"),
      doc("b", "beta_tool", "Reads weather radar"),
    ]);
    assert.equal(index.size, 2);
    index.replaceServer("a", [doc("a", "gamma_tool", "Plays chess games")]);
    assert.equal(index.size, 2);
    assert.deepEqual(top(index, "weather"), ["b/beta_tool"]);
    assert.deepEqual(top(index, "chess"), ["a/gamma_tool"]);
    assert.equal(index.get("a/alpha_tool"), undefined);
  });

  it("removes a server's documents, and re-adding an id replaces it", () => {
    // No learned words: requests ask a translator to "convert".
    const index = new LexicalSearchIndex({ lexicon: false, requestWords: false, similarTools: false });
    index.add([doc("a", "one", "Converts currency"), doc("b", "two", "Converts units")]);
    index.removeServer("a");
    assert.deepEqual(top(index, "converts"), ["b/two"]);
    index.add([doc("b", "two", "Translates text")]);
    assert.equal(index.size, 1);
    assert.deepEqual(top(index, "converts"), []);
    assert.deepEqual(top(index, "translate"), ["b/two"]);
  });

  it("stays correct through many replacements (postings are compacted)", () => {
    const index = new LexicalSearchIndex({ lexicon: false });
    for (let round = 0; round < 40; round++) {
      const word = round % 2 === 0 ? "calendar" : "invoice";
      index.replaceServer(
        "s",
        Array.from({ length: 20 }, (_, i) =>
          doc("s", `tool_${round}_${i}`, `Manages the ${word} number ${i}`),
        ),
      );
    }
    assert.equal(index.size, 20);
    assert.equal(index.search("invoice", { limit: 100 }).length, 20);
    assert.equal(index.search("calendar", { limit: 100 }).length, 0);
  });

  it("filters by kind", () => {
    const index = new LexicalSearchIndex({ lexicon: false });
    index.add([
      doc("a", "summarize_tool", "Summarize text"),
      { ...doc("a", "x", ""), id: "skill:sum", kind: "skill", name: "summarize", server: undefined },
    ]);
    assert.deepEqual(
      index.search("summarize", { kinds: ["skill"] }).map((hit) => hit.id),
      ["skill:sum"],
    );
    assert.equal(index.search("summarize").length, 2);
  });
});

describe("MemorySearchIndex", () => {
  it("implements the same updates with a word-overlap score", () => {
    const index = new MemorySearchIndex();
    index.add([doc("a", "read_file", "Read a file"), doc("b", "write_file", "Write a file")]);
    assert.deepEqual(top(index, "read file"), ["a/read_file", "b/write_file"]);
    index.replaceServer("a", []);
    assert.deepEqual(top(index, "read file"), ["b/write_file"]);
    index.removeServer("b");
    assert.equal(index.size, 0);
  });
});
