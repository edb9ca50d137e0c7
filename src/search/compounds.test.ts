import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compoundTerms, splitCompound } from "./compounds.ts";
import { defaultWordVectors } from "./word-vectors.ts";

// A small vocabulary by frequency rank, so the expected splits follow from it alone.
const VOCABULARY = [
  "the",
  "to",
  "how",
  "data",
  "news",
  "search",
  "web",
  "cook",
  "hacker",
  "gov",
  "book",
  "notebook",
];
const rankOf = (word: string) => {
  const rank = VOCABULARY.indexOf(word);
  return rank < 0 ? undefined : rank;
};

describe("splitCompound", () => {
  it("splits a word joining vocabulary words", () => {
    assert.deepEqual(splitCompound("datagov", rankOf), ["data", "gov"]);
    assert.deepEqual(splitCompound("hackernews", rankOf), ["hacker", "news"]);
    assert.deepEqual(splitCompound("howtocook", rankOf), ["how", "to", "cook"]);
  });

  it("prefers fewer, more frequent words", () => {
    // "note" + "book" is not even possible here, and the whole is a frequent word anyway.
    assert.equal(splitCompound("notebook", rankOf), undefined);
    assert.deepEqual(splitCompound("websearch", rankOf), ["web", "search"]);
  });

  it("leaves words it cannot cover, short words and non-letters alone", () => {
    assert.equal(splitCompound("datazork", rankOf), undefined);
    assert.equal(splitCompound("webto", rankOf), undefined);
    assert.equal(splitCompound("data_gov", rankOf), undefined);
  });

  it("gives the stemmed terms of a text's compounds only", () => {
    assert.deepEqual(compoundTerms("hackernews get_top datagov", rankOf), ["hacker", "news", "data", "gov"]);
    assert.deepEqual(compoundTerms("hackernews", undefined), []);
  });

  it("splits identifiers with the shipped vocabulary", () => {
    const vectors = defaultWordVectors();
    assert.ok(vectors, "the shipped word vectors load");
    const shipped = (word: string) => vectors.rankOf(word);
    assert.deepEqual(splitCompound("keywordexplorer", shipped), ["keyword", "explorer"]);
    assert.deepEqual(splitCompound("duckduckgo", shipped), ["duck", "duck", "go"]);
    assert.deepEqual(splitCompound("timemachine", shipped), ["time", "machine"]);
    // Frequent words are words, however they could be cut.
    assert.equal(splitCompound("together", shipped), undefined);
    assert.equal(splitCompound("playwright", shipped), undefined);
    // Mostly two-letter pieces are an acronym, not words.
    assert.equal(splitCompound("hdbcarpark", shipped), undefined);
  });
});
