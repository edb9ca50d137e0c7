import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { MIN_SPECIFICITY, specificity } from "./specificity.ts";
import { stem } from "./tokenize.ts";
import { toolDoc as doc } from "./tool-doc.fixture.ts";

describe("specificity", () => {
  it("weighs common English words below rare ones, within MIN_SPECIFICITY..1", () => {
    const common = specificity(stem("provide"));
    const rarer = specificity(stem("cryptocurrency"));
    assert.ok(common >= MIN_SPECIFICITY && common < rarer, `${common} vs ${rarer}`);
    assert.ok(specificity(stem("latest")) < specificity(stem("spreadsheet")));
    assert.equal(specificity("zzyzxqua"), 1);
    assert.equal(specificity("搜索"), 1);
  });

  it("lets the telling word of a request outrank a generic one in the ranking", () => {
    const docs = [doc("a", "provide"), doc("b", "cryptocurrency")];
    // Request likelihood and pairs off: they weigh the two words by what requests say, the stage
    // tested here by English.
    const learned = { requestLikelihood: false, requestPairs: false } as const;
    const on = new LexicalSearchIndex({ lexicon: false, wordVectors: false, ...learned });
    const off = new LexicalSearchIndex({
      lexicon: false,
      specificity: false,
      wordVectors: false,
      ...learned,
    });
    on.add(docs);
    off.add(docs);
    // Both words occur once in the catalog, so idf alone cannot tell them apart.
    const query = "provide cryptocurrency";
    const [first, second] = off.search(query);
    assert.equal(first?.score, second?.score);
    assert.equal(on.search(query)[0]?.id, "s/b");
  });

  it("keeps the best possible match at score 1", () => {
    const index = new LexicalSearchIndex({ lexicon: false });
    index.add([doc("provide_details", "provide details")]);
    const [hit] = index.search("provide details");
    assert.ok(hit !== undefined && hit.score > 0.5 && hit.score <= 1, `${hit?.score}`);
  });
});
