import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { diversify, REPEAT_DISCOUNT } from "./diversify.ts";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { toolDoc } from "./tool-doc.fixture.ts";

interface Entry {
  readonly id: string;
  readonly score: number;
  readonly coverage?: Float64Array;
}
const covering = (id: string, score: number, coverage: number[]): Entry => ({
  id,
  score,
  coverage: Float64Array.from(coverage),
});
const ids = (entries: readonly Entry[]) => entries.map((e) => e.id);
const coverageOf = (e: Entry) => e.coverage;

describe("diversify", () => {
  it("lowers a result for the request words the results above it already match", () => {
    const ranked = [covering("a", 1, [0.5, 0]), covering("b", 0.9, [0.5, 0]), covering("c", 0.8, [0, 0.4])];
    // b's 0.5 on the first word is already matched: 0.9 − REPEAT_DISCOUNT × 0.5 falls below c's 0.8.
    assert.ok(0.9 - REPEAT_DISCOUNT * 0.5 < 0.8);
    const out = diversify(ranked, coverageOf, 3);
    assert.deepEqual(ids(out), ["a", "c", "b"]);
    // Each keeps its own score: the order changed, not how well it matches.
    assert.deepEqual(
      out.map((e) => e.score),
      [1, 0.8, 0.9],
    );
    assert.deepEqual(ids(diversify(ranked, () => undefined, 3)), ["a", "b", "c"]);
  });

  it("keeps a server's near-identical tools together: it does not spread across servers", () => {
    const ranked = [covering("a1", 1, [0.5]), covering("a2", 0.98, [0]), covering("b1", 0.9, [0])];
    assert.deepEqual(ids(diversify(ranked, coverageOf, 3)), ["a1", "a2", "b1"]);
  });

  it("returns at most limit entries", () => {
    assert.equal(diversify([covering("a", 1, [1]), covering("b", 1, [0])], coverageOf, 1).length, 1);
    assert.deepEqual(diversify([], coverageOf, 5), []);
  });
});

describe("search results across the request's words", () => {
  it("shows a tool for another word of the request before a third one for the same word", () => {
    const docs = [
      toolDoc("summarize_text", "Summarize a text", { server: "a" }),
      toolDoc("summarize_document", "Summarize a document", { server: "b" }),
      toolDoc("summarize_page", "Summarize a web page", { server: "c" }),
      toolDoc("stock_quote", "Get a stock quote", { server: "d" }),
      toolDoc("stock_news", "News about a stock", { server: "e" }),
    ];
    const names = (index: LexicalSearchIndex) =>
      index.search("summarize a stock", { limit: 3 }).map((hit) => hit.name);
    const plain = new LexicalSearchIndex({
      spreadWords: false,
      wordVectors: false,
      requestLikelihood: false,
    });
    plain.add(docs);
    assert.ok(
      names(plain).every((name) => name.startsWith("summarize")),
      names(plain).join(),
    );
    const spread = new LexicalSearchIndex({
      spreadWords: true,
      wordVectors: false,
      requestLikelihood: false,
    });
    spread.add(docs);
    assert.ok(names(spread)[1]?.startsWith("stock"), names(spread).join());
  });
});
