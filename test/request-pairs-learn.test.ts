import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { learnRequestPairs, type RankedRequest } from "../scripts/search-data/request-pairs/learn.ts";
import { pairWords, RequestPairs } from "../src/search/request-pairs.ts";
import { toolDoc } from "../src/search/tool-doc.fixture.ts";

const docs = new Map(
  [
    toolDoc("delete_card", "Delete a card"),
    toolDoc("archive_card", "Archive a card"),
    toolDoc("update_card", "Update a card"),
  ].map((doc) => [doc.id, doc]),
);
const wordsOf = (id: string) => {
  const doc = docs.get(id);
  if (!doc) throw new Error(`no tool ${id}`);
  return pairWords(doc);
};
// Search put delete first for requests that wanted the card kept: the scores alone get these wrong.
const ranked = (request: string, expected: string): RankedRequest => ({
  request,
  expected: [`s/${expected}`],
  candidates: [
    { id: "s/delete_card", score: 0.6 },
    { id: "s/archive_card", score: 0.55 },
    { id: "s/update_card", score: 0.5 },
  ],
});
const rankings = [
  ranked("stash the card without deleting it", "archive_card"),
  ranked("put the card away, don't delete it", "archive_card"),
  ranked("stash that old card", "archive_card"),
  ranked("delete the card for good", "delete_card"),
  ranked("delete this card now", "delete_card"),
  ranked("rename the card", "update_card"),
  ranked("rename that card please", "update_card"),
];

describe("learning request pairs", () => {
  it("learns pair weights that put each request's tool first where the scores did not", () => {
    const lines = learnRequestPairs(rankings, wordsOf, {
      minPositives: 2,
      rounds: 300,
      learningRate: 0.5,
      l2: 1e-5,
      minWeight: 0.0005,
    });
    assert.deepEqual(lines, [...lines].sort(), "lines are sorted, so the table is the same every build");
    const table = new RequestPairs(lines);
    const tools = ["s/delete_card", "s/archive_card", "s/update_card"].map((id) =>
      table.numbered(wordsOf(id)),
    );
    const best = (request: string) => {
      const stems = [...new Set(request.split(" "))];
      const adjusted = table.adjustments(stems, tools).map((value, at) => value + [0.6, 0.55, 0.5][at]!);
      return ["delete", "archive", "update"][adjusted.indexOf(Math.max(...adjusted))];
    };
    assert.equal(best("stash card"), "archive");
    assert.equal(best("renam card"), "update");
    assert.equal(best("delet card good"), "delete");
  });

  it("learns nothing from a ranking without the tool asked for, and names a tool it cannot read", () => {
    assert.deepEqual(
      learnRequestPairs([{ ...ranked("stash it", "archive_card"), expected: ["s/other"] }], wordsOf),
      [],
    );
    assert.throws(
      () =>
        learnRequestPairs(
          [{ request: "x", expected: ["s/gone"], candidates: [{ id: "s/gone", score: 1 }] }],
          wordsOf,
        ),
      /no tool s\/gone/,
    );
  });
});
