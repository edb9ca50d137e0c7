import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  isWordTerm,
  MAX_STEMMED_LENGTH,
  splitIdentifiers,
  stem,
  terms,
  words,
  wordTerms,
} from "./tokenize.ts";

describe("words", () => {
  it("splits camelCase, snake_case, kebab-case and acronyms", () => {
    assert.deepEqual(words("getFileInfo"), ["get", "file", "info"]);
    assert.deepEqual(words("list_s3_buckets"), ["list", "s3", "buckets"]);
    assert.deepEqual(words("read-text-file"), ["read", "text", "file"]);
    assert.deepEqual(words("HTMLParser"), ["html", "parser"]);
    assert.deepEqual(words("browser_take_screenshot"), ["browser", "take", "screenshot"]);
  });

  it("reads an acronym's plural as the acronym, on either path", () => {
    assert.deepEqual(words("review my PRs"), ["review", "my", "pr"]);
    assert.deepEqual(words("listAPIs by IDs"), ["list", "api", "by", "id"]);
    assert.deepEqual(words("URLs — café"), ["url", "café"]);
    // A capital run before a lowercase word still splits off its last capital.
    assert.deepEqual(words("HTTPServer ASSETS"), ["http", "server", "assets"]);
  });

  it("joins a hyphenated compound of function words, on either path", () => {
    assert.deepEqual(terms("every To-Do on the board"), ["todo", "board"]);
    assert.deepEqual(terms("my to-dos — café"), ["todo", "café"]);
    assert.deepEqual(terms("a how-to"), ["howto"]);
    // A compound with a content word, or of three words, splits as before.
    assert.deepEqual(words("sign-in up-to-date"), ["sign", "in", "up", "to", "date"]);
    assert.deepEqual(words("add-on"), ["add", "on"]);
  });

  it("takes the same path for non-ASCII text", () => {
    assert.deepEqual(words("getÉtatCourant"), ["get", "état", "courant"]);
    assert.equal(splitIdentifiers("a.b/c:d"), "a b c d");
    // Typographic punctuation only separates words, on either path.
    assert.deepEqual(words("It’s a “quotedWord” — fine…"), ["it", "s", "a", "quoted", "word", "fine"]);
    assert.deepEqual(words("café — “getÉtat”"), ["café", "get", "état"]);
  });

  it("indexes CJK runs as character bigrams", () => {
    assert.deepEqual(words("搜索网页"), ["搜索", "索网", "网页"]);
  });
});

describe("terms", () => {
  it("drops stop words and request words, and stems", () => {
    assert.deepEqual(terms("Please read the files in a directory"), ["read", "file", "directori"]);
  });

  it("conflates inflections and derivations", () => {
    assert.equal(stem("searching"), stem("search"));
    assert.equal(stem("generation"), stem("generate"));
    assert.equal(stem("issues"), stem("issue"));
    // A double letter of the word's own survives its inflections; a doubled one does not.
    assert.deepEqual(["add", "adding", "added", "ads"].map(stem), ["add", "add", "add", "ad"]);
    assert.deepEqual(["staff", "staffing", "running", "logged"].map(stem), ["staff", "staff", "run", "log"]);
    // Porter2 keeps apart words the original Porter stemmer merges.
    assert.notEqual(stem("news"), stem("new"));
    assert.notEqual(stem("general"), stem("generate"));
    // A run of letters longer than any English word is kept whole (the stemmer is quadratic).
    assert.equal(stem("relational"), "relat");
    const run = `${"x".repeat(MAX_STEMMED_LENGTH)}ational`;
    assert.equal(stem(run), run);
  });
});

describe("wordTerms", () => {
  it("keeps the terms of plain letters, dropping numbers and mixed tokens", () => {
    assert.deepEqual(wordTerms("List the 100 newest S3 buckets in café v2"), ["list", "newest", "bucket"]);
    assert.deepEqual(
      terms("top 100 s3 buckets").filter((term) => !isWordTerm(term)),
      ["100", "s3"],
    );
  });
});
