import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defaultLexicon } from "./lexicon.ts";
import { nameTerms } from "./proper-nouns.ts";
import { analyzeQuery } from "./query.ts";
import { stem } from "./tokenize.ts";

describe("nameTerms", () => {
  it("takes Capitalised words inside a sentence as names, not a sentence's first word", () => {
    assert.deepEqual(
      [...nameTerms("Analyze Apple's stock. Then ask Alice on Slack!")].sort(),
      ["alic", "appl", "slack"].sort(),
    );
    assert.deepEqual([...nameTerms("Weather in paris")], []);
    // Acronyms are not names here: "PDF", "SQL" keep their related words.
    assert.deepEqual([...nameTerms("convert the PDF with SQL")], []);
  });

  it("ignores capitals in Title Case text", () => {
    assert.deepEqual([...nameTerms("Find The Best Hotel In Town")], []);
  });

  it("keeps names out of the query's dictionary expansion", () => {
    const expanded = (text: string) => analyzeQuery(text, defaultLexicon(), false).map((entry) => entry.term);
    assert.ok(expanded("summarize Apple stock").includes(stem("apple")));
    assert.ok(!expanded("summarize Apple stock").includes(stem("fruit")));
    assert.ok(expanded("which apple is sweetest").includes(stem("fruit")), "a common noun is expanded");
  });

  it("expands a name no dictionary lists by its word-vector neighbours", () => {
    const related = (text: string, source: string) =>
      analyzeQuery(text, defaultLexicon(), false)
        .filter((entry) => entry.source === stem(source) && entry.term !== entry.source)
        .map((entry) => entry.term);
    // "Bitcoin" has no WordNet sense to mislead; its vector knows what it is.
    assert.ok(related("what is the current price of Bitcoin", "bitcoin").includes(stem("cryptocurrency")));
    assert.deepEqual(related("analyse the stock of Apple today", "apple"), []);
  });
  it("reads a word after a line break or a sentence's end as a sentence's first", () => {
    const names = nameTerms("list files\n  Then ask Alice. Maybe Bob: Carol knows; Dave too");
    assert.deepEqual([...names].sort(), ["alic", "bob"]);
  });
});
