import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { diversify, REPEAT_DISCOUNT, SAME_SERVER_PENALTY } from "./diversify.ts";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { toolDoc } from "./tool-doc.fixture.ts";

interface Entry {
  readonly id: string;
  readonly server: string | undefined;
  readonly score: number;
}
const entry = (id: string, server: string | undefined, score: number): Entry => ({ id, server, score });
const ids = (entries: readonly Entry[]) => entries.map((e) => e.id);
const byServer = { serverOf: (e: Entry) => e.server };

describe("diversify", () => {
  it("lets a close result of another server pass a server's later results", () => {
    const ranked = [
      entry("a1", "a", 1),
      entry("a2", "a", 0.98),
      entry("a3", "a", 0.96),
      entry("b1", "b", 0.9),
    ];
    const out = diversify(ranked, byServer, 3);
    assert.deepEqual(ids(out), ["a1", "b1", "a2"]);
    // Each keeps its own score: the order changed, not how well it matches.
    assert.deepEqual(
      out.map((e) => e.score),
      [1, 0.9, 0.98],
    );
  });

  it("never drops a result of a server with many, only moves it down", () => {
    const many = Array.from({ length: 30 }, (_, i) => entry(`a${i}`, "a", 1 - i / 1000));
    const out = diversify([...many, entry("b1", "b", 1 - SAME_SERVER_PENALTY - 0.01)], byServer, 31);
    assert.equal(out.length, 31);
    assert.deepEqual(ids(out).slice(0, 3), ["a0", "a1", "b1"]);
  });

  it("keeps the order where the other server is far behind, and never lowers serverless entries", () => {
    const ranked = [entry("a1", "a", 1), entry("a2", "a", 0.95), entry("b1", "b", 0.5)];
    assert.deepEqual(ids(diversify(ranked, byServer, 3)), ["a1", "a2", "b1"]);
    const skills = [entry("s1", undefined, 1), entry("s2", undefined, 0.99), entry("a1", "a", 0.98)];
    assert.deepEqual(ids(diversify(skills, byServer, 2)), ["s1", "s2"]);
  });

  it("lowers a result for the request words the results above it already match", () => {
    const covering = (id: string, score: number, coverage: number[]) => ({
      ...entry(id, undefined, score),
      coverage: Float64Array.from(coverage),
    });
    const ranked = [covering("a", 1, [0.5, 0]), covering("b", 0.9, [0.5, 0]), covering("c", 0.8, [0, 0.4])];
    const by = { serverOf: () => undefined, coverageOf: (e: (typeof ranked)[number]) => e.coverage };
    // b's 0.5 on the first word is already matched: 0.9 − REPEAT_DISCOUNT × 0.5 falls below c's 0.8.
    assert.ok(0.9 - REPEAT_DISCOUNT * 0.5 < 0.8);
    assert.deepEqual(ids(diversify(ranked, by, 3)), ["a", "c", "b"]);
    assert.deepEqual(ids(diversify(ranked, { serverOf: () => undefined }, 3)), ["a", "b", "c"]);
  });

  it("returns at most limit entries", () => {
    assert.equal(diversify([entry("a", "x", 1), entry("b", "y", 1)], byServer, 1).length, 1);
    assert.deepEqual(diversify([], byServer, 5), []);
  });
});

describe("search results across servers", () => {
  it("shows a second server's tool before a third near-copy of the first's", () => {
    const docs = [
      toolDoc("get_price", "Get the stock price of a ticker", { server: "quotes" }),
      toolDoc("get_price_now", "Get the stock price of a ticker now", { server: "quotes" }),
      toolDoc("get_price_today", "Get the stock price of a ticker today", { server: "quotes" }),
      toolDoc("get_price_chart", "Draw a chart of the stock price of a ticker over time", {
        server: "charts",
      }),
    ];
    const servers = (index: LexicalSearchIndex) =>
      index.search("stock price of a ticker", { limit: 3 }).map((hit) => hit.server);
    // By words alone: the spread, not what word vectors make of "chart", is under test.
    const spread = new LexicalSearchIndex({ wordVectors: false });
    spread.add(docs);
    assert.deepEqual(servers(spread).sort(), ["charts", "quotes", "quotes"]);
    const unspread = new LexicalSearchIndex({ spreadServers: false, wordVectors: false });
    unspread.add(docs);
    assert.deepEqual(servers(unspread), ["quotes", "quotes", "quotes"]);
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
    const plain = new LexicalSearchIndex({ spreadWords: false, wordVectors: false });
    plain.add(docs);
    assert.ok(
      names(plain).every((name) => name.startsWith("summarize")),
      names(plain).join(),
    );
    const spread = new LexicalSearchIndex({ wordVectors: false });
    spread.add(docs);
    assert.ok(names(spread)[1]?.startsWith("stock"), names(spread).join());
  });
});
