import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { learnRequestLikelihood } from "../scripts/search-data/request-likelihood/learn.ts";
import { RequestLikelihood } from "../src/search/request-likelihood.ts";
import { toolDoc } from "../src/search/tool-doc.fixture.ts";

const documents = new Map(
  [
    toolDoc("delete_issue", "Delete an issue"),
    toolDoc("update_issue", "Update an issue"),
    toolDoc("create_issue", "Create an issue"),
  ].map((doc) => [doc.id, doc]),
);
const pair = (request: string, name: string) => ({ request, tool: `s/${name}`, also: [], server: "s" });
const pairs = [
  pair("get rid of the issue", "delete_issue"),
  pair("get rid of that issue", "delete_issue"),
  pair("tweak the issue", "update_issue"),
  pair("tweak an issue title", "update_issue"),
  pair("open a new issue", "create_issue"),
  pair("file a new issue", "create_issue"),
];

describe("learning request likelihood", () => {
  it("puts each request word on the tool word that explains it, not on the words every tool shares", () => {
    const lines = learnRequestLikelihood(pairs, documents, {
      rounds: 8,
      minProbability: 0.01,
      perRequestWord: 5,
    });
    const table = new RequestLikelihood(lines);
    const first = (word: string) => {
      const number = table.word(word)?.sources[0];
      return ["delet", "updat", "creat", "issu", "new", "rid"].find(
        (stem) => table.sourceNumber(stem) === number,
      );
    };
    assert.equal(first("rid"), "delet");
    assert.equal(first("tweak"), "updat");
    assert.equal(first("new"), "creat");
    assert.equal(first("issu"), "issu");
    // Shares of all request words: "issue" is in every request.
    assert.ok((table.word("issu")?.background ?? 0) > (table.word("rid")?.background ?? 1));
    assert.deepEqual(lines, [...lines].sort(), "lines are sorted, so the table is the same every build");
  });

  it("names a request whose tool is missing", () => {
    assert.throws(
      () => learnRequestLikelihood([pair("drop it", "drop_table")], documents),
      /no tool s\/drop_table for the request "drop it"/,
    );
  });
});
