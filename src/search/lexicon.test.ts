import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { defaultLexicon, Lexicon, wordNetLexicon } from "./lexicon.ts";
import { stem } from "./tokenize.ts";
import { toolDoc as doc } from "./tool-doc.fixture.ts";

const relatedTerms = (lexicon: Lexicon, word: string) => lexicon.related(stem(word)).map((r) => r.term);

describe("Lexicon", () => {
  it("merges WordNet relations with word-vector neighbours, strongest first", () => {
    const lexicon = new Lexicon(
      "shoe\tboot:s0 footwear:h0",
      "# a comment\nshoe\tsneaker:80 boot:10\nbroken line",
    );
    assert.deepEqual(lexicon.related("shoe"), [
      { term: "sneaker", weight: 0.8 },
      { term: "boot", weight: 0.3 },
      { term: "footwear", weight: 0.15 },
    ]);
    assert.deepEqual(lexicon.related("broken line"), []);
    assert.equal(lexicon.size, 1);
  });

  it("ignores neighbour items that are not stem:percent", () => {
    const lexicon = new Lexicon("", "cook\trecip:78 bake:x :50 fry:120");
    assert.deepEqual(lexicon.related("cook"), [{ term: "recip", weight: 0.78 }]);
  });

  it("ships neighbours for words WordNet 3.1 does not relate", () => {
    const shipped = defaultLexicon();
    const wordnet = wordNetLexicon();
    for (const [word, neighbour] of [
      ["smartphone", "cellphone"],
      ["flight", "airline"],
      ["recipe", "cook"],
    ] as const) {
      assert.ok(
        relatedTerms(shipped, word).includes(stem(neighbour)),
        `${word} → ${relatedTerms(shipped, word)}`,
      );
      assert.ok(!relatedTerms(wordnet, word).includes(stem(neighbour)), `${word} in WordNet`);
    }
  });
});

describe("LexicalSearchIndex with word-vector neighbours", () => {
  const docs = [
    doc("search_airlines", "Search airline tickets and compare fares."),
    doc("book_hotel", "Book a hotel room for given dates."),
    doc("get_forecast", "Weather forecast for a city."),
  ];

  it("expands a query word to its neighbours, which WordNet alone does not", () => {
    const query = "cheap flights to Rome";
    const withNeighbours = new LexicalSearchIndex({ wordVectors: false, domainTerms: false });
    const wordnetOnly = new LexicalSearchIndex({
      wordVectors: false,
      lexicon: wordNetLexicon(),
      domainTerms: false,
    });
    withNeighbours.add(docs);
    wordnetOnly.add(docs);
    assert.equal(withNeighbours.search(query)[0]?.id, "s/search_airlines");
    assert.ok(!wordnetOnly.search(query).some((hit) => hit.id === "s/search_airlines"));
  });
});
