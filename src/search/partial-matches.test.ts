import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { completions, type IndexTerms, PARTIAL_MATCH_WEIGHT, withPartialMatches } from "./partial-matches.ts";
import type { WeightedTerm } from "./query.ts";
import { toolDoc } from "./tool-doc.fixture.ts";

function indexOf(live: string[], removed: string[] = []): IndexTerms {
  const sorted = [...live, ...removed].sort();
  const holds = new Set(live);
  return { sorted: () => sorted, has: (term) => holds.has(term) };
}

const original = (term: string, weight = 1): WeightedTerm => ({ term, weight, source: term });

describe("completions", () => {
  it("lists the live index terms a prefix begins", () => {
    const index = indexOf(["cryptocurr", "crypt", "price", "cryptographi"], ["cryptojack"]);
    assert.deepEqual(completions("crypto", index), ["cryptocurr", "cryptographi"]);
    assert.deepEqual(completions("zzz", index), []);
  });

  it("gives up on a prefix that begins too many terms", () => {
    const index = indexOf(["transl", "transport", "transcrib", "transfer"]);
    assert.deepEqual(completions("tran", index), []);
  });
});

describe("withPartialMatches", () => {
  it("completes a query word the index lacks, at a share of its weight", () => {
    const index = indexOf(["cryptocurr", "price"]);
    const terms = withPartialMatches([original("crypto", 0.8), original("price")], index);
    assert.deepEqual(terms.slice(2), [
      { term: "cryptocurr", weight: 0.8 * PARTIAL_MATCH_WEIGHT, source: "crypto" },
    ]);
  });

  it("leaves words the index holds, short words and related words alone", () => {
    const index = indexOf(["price", "pricei", "app", "appli", "cryptocurr"]);
    const related: WeightedTerm = { term: "crypto", weight: 0.5, source: "bitcoin" };
    const query = [original("price"), original("app"), related];
    assert.deepEqual(withPartialMatches(query, index), query);
    // A word in quotes is a title or name: "Kube Story" is no request for Kubernetes.
    const quoted: WeightedTerm = { term: "crypto", weight: 0.5, source: "crypto", exact: true };
    assert.deepEqual(withPartialMatches([quoted], index), [quoted]);
  });

  it("matches the words of a compound the index lacks", () => {
    const index = indexOf(["hacker", "new", "stori"]);
    const rankOf = (word: string) => (["hacker", "new"].includes(word) ? 1 : undefined);
    // Query terms are stems: "hackernews" is "hackernew", which splits into hacker + new.
    const terms = withPartialMatches([original("hackernew")], index, rankOf);
    assert.deepEqual(
      terms.slice(1).map((entry) => [entry.term, entry.weight]),
      [
        ["hacker", PARTIAL_MATCH_WEIGHT],
        ["new", PARTIAL_MATCH_WEIGHT],
      ],
    );
  });
});

describe("withPartialMatches on a misspelt word", () => {
  it("matches the common word one slip away when no dictionary knows the word", () => {
    const vocabulary = new Map([
      ["recommend", 900],
      ["music", 400],
    ]);
    const rankOf = (word: string) => vocabulary.get(word);
    const index = indexOf(["recommend", "music"]);
    const terms = withPartialMatches([original("recomend"), original("music")], index, rankOf);
    assert.deepEqual(terms.slice(2), [
      { term: "recommend", weight: PARTIAL_MATCH_WEIGHT, source: "recomend" },
    ]);
  });

  it("finds a tool through a typo in the request", () => {
    const index = new LexicalSearchIndex();
    index.add([
      toolDoc("recommend_songs", "Recommend songs similar to a track"),
      toolDoc("translate_text", "Translate a text into another language"),
      toolDoc("weather_forecast", "Get the weather forecast for a city"),
    ]);
    assert.equal(index.search("recomend me some simlar tracks")[0]?.id, "s/recommend_songs");
    assert.equal(index.search("wether forcast in Paris")[0]?.id, "s/weather_forecast");
  });
});
