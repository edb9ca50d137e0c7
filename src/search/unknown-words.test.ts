import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readUnknownWord } from "./unknown-words.ts";
import { defaultWordVectors } from "./word-vectors.ts";

const vectors = defaultWordVectors();
if (!vectors) throw new Error("the shipped word vectors are missing");
const rankOf = (word: string) => vectors.rankOf(word);
const read = (word: string) => readUnknownWord(word, rankOf);

describe("readUnknownWord", () => {
  it("reads an inflection of a known word as that word", () => {
    assert.equal(rankOf("horoscopes"), undefined);
    assert.deepEqual(read("horoscopes"), ["horoscope"]);
  });

  it("reads words joined as one as the words they join", () => {
    assert.equal(rankOf("cashflow"), undefined);
    assert.deepEqual(read("cashflow"), ["cash", "flow"]);
  });

  it("reads a misspelt word as the most frequent common word one edit away", () => {
    assert.deepEqual(read("strology"), ["astrology"], "a letter dropped");
    assert.deepEqual(read("povides"), ["provides"], "a letter dropped");
    assert.deepEqual(read("recomemnd"), ["recommend"], "two letters swapped");
    assert.deepEqual(read("assistantn"), ["assistant"], "a letter added");
  });

  it("leaves short unknown words, and words of other characters, unread", () => {
    assert.deepEqual(read("qzxv"), []);
    assert.deepEqual(read("nylas"), [], "a short name is not taken for a typo");
    assert.deepEqual(read("a1b2c3"), []);
    assert.deepEqual(read("zzqxwvv"), [], "nothing one edit away");
  });
});

describe("word-vector embedding of unknown words", () => {
  it("embeds a description with a misspelt key word near the word meant", () => {
    const embed = (text: string) => {
      const out = new Float32Array(vectors.dimensions);
      assert.ok(vectors.embed(text, out));
      return out;
    };
    const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, k) => sum + x * (b[k] ?? 0), 0);
    const meant = embed("provides astrology services");
    assert.ok(cosine(embed("Povides strology services"), meant) > 0.95);
    assert.ok(cosine(embed("services"), meant) < 0.9, "the misspelt words count");
  });
});
