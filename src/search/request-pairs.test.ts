import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LexicalSearchIndex } from "./lexical-index.ts";
import {
  defaultRequestPairs,
  describedKey,
  PAIR_DESCRIPTION_WORDS,
  pairWords,
  RequestPairs,
} from "./request-pairs.ts";
import { toolDoc } from "./tool-doc.fixture.ts";

// "without deleting" speaks against delete and for archive; "stash" for archive.
const table = new RequestPairs([
  "# a header line",
  "delet\tdelet:-0.08 archiv:0.05",
  "stash\tarchiv:0.06 ~hidden:0.02",
  "broken",
  "empty\t",
]);

describe("request pairs", () => {
  it("reads the table's rows, leaving out the header and malformed lines", () => {
    assert.equal(table.size, 2);
  });

  it("reads a tool's distinct name stems and the first distinct description stems not in its name", () => {
    const words = pairWords(
      toolDoc(
        "archive_card",
        `Archive a card, hidden from the board. ${"word".repeat(1)} ${"alpha beta gamma delta epsilon zeta eta theta iota kappa lambda"}`,
      ),
    );
    assert.deepEqual(words.name, ["archiv", "card"]);
    assert.equal(words.described.length, PAIR_DESCRIPTION_WORDS);
    assert.ok(!words.described.includes("archiv") && words.described.includes("hidden"));
    assert.equal(describedKey("hidden"), "~hidden");
  });

  it("adds what the request's words say for or against each tool's words", () => {
    const archiveWords = pairWords(toolDoc("archive_card", "Archive a card, hidden from view"));
    const archive = table.numbered(archiveWords);
    const remove = table.numbered(pairWords(toolDoc("delete_card", "Delete a card")));
    const [forArchive = 0, forDelete = 0, none = 1] = table.adjustments(
      ["clear", "card", "delet"],
      [archive, remove, undefined],
    );
    assert.ok(Math.abs(forArchive - 0.05 / 3) < 1e-9, `${forArchive}`);
    assert.ok(Math.abs(forDelete + 0.08 / 3) < 1e-9, `${forDelete}`);
    assert.equal(none, 0);
    // A description word's pair counts at its share: 1/(request words × √description words).
    const [stashed = 0] = table.adjustments(["stash"], [archive]);
    const described = archiveWords.described.length;
    assert.ok(Math.abs(stashed - (0.06 + 0.02 / Math.sqrt(described))) < 1e-6, `${stashed}`);
    assert.deepEqual([...table.adjustments(["unknown"], [archive])], [0]);
    // A tool none of whose words the table weighs carries nothing.
    assert.equal(table.numbered(pairWords(toolDoc("ping", "Check a host"))), undefined);
  });

  it("reorders the head of a ranking in the index, only with a table", () => {
    const docs = [
      toolDoc("delete_card", "Delete a card from the board"),
      toolDoc("archive_card", "Archive a card on the board"),
    ];
    const search = (requestPairs: RequestPairs | false) => {
      const index = new LexicalSearchIndex({ requestPairs, requestLikelihood: false, wordVectors: false });
      index.add(docs);
      return index
        .search("clear the card off the board without deleting it", { limit: 2 })
        .map((hit) => hit.id);
    };
    assert.equal(search(false)[0], "s/delete_card");
    const strong = new RequestPairs(["delet\tdelet:-2 archiv:2"]);
    assert.equal(search(strong)[0], "s/archive_card");
  });

  it("ships a table learned from rankings of tool requests", () => {
    const shipped = defaultRequestPairs();
    assert.ok(shipped.size >= 2000, `${shipped.size} request words`);
    const [remove = 0, get = 0] = shipped.adjustments(
      ["delet", "item"],
      [
        shipped.numbered(pairWords(toolDoc("remove_item", "Remove an item"))),
        shipped.numbered(pairWords(toolDoc("get_item", "Get an item"))),
      ],
    );
    assert.ok(remove > get, `${remove} ${get}`);
  });
});
