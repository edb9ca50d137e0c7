import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PostingLists } from "./postings.ts";
import type { WeightedTerm } from "./query.ts";

const term = (word: string, weight = 1, source = word): WeightedTerm => ({ term: word, weight, source });

/** Three documents: 0 holds "file" and "read", 1 "file" and "get", 2 "get" only. */
function lists(): PostingLists {
  const postings = new PostingLists();
  postings.add(0, ["file", "read"], [2, 1]);
  postings.add(1, ["file", "get"], [1, 3]);
  postings.add(2, ["get"], [1]);
  return postings;
}

describe("PostingLists.score", () => {
  it("sums idf × query weight × document weight over the query's words", () => {
    const postings = lists();
    const { lexical, best } = postings.score([term("file"), term("read", 0.5)]);
    const file = postings.idf("file");
    const read = postings.idf("read");
    assert.ok(Math.abs((lexical[0] ?? 0) - (2 * file + 0.5 * read)) < 1e-12);
    assert.ok(Math.abs((lexical[1] ?? 0) - file) < 1e-12);
    assert.equal(lexical[2], 0);
    assert.equal(best, lexical[0]);
  });

  it("counts a word and its related words once, at the best match", () => {
    const postings = lists();
    // "read" with "get" as a related word: document 1 matches only through "get", document 0 only "read".
    // A copy: the lists reuse their score buffer.
    const lexical = postings.score([term("read"), term("get", 0.5, "read")]).lexical.slice();
    const read = postings.idf("read");
    // A related word's idf is capped at its query word's.
    const get = Math.min(read, postings.idf("get"));
    assert.ok(Math.abs((lexical[0] ?? 0) - read) < 1e-12);
    assert.ok(Math.abs((lexical[1] ?? 0) - 0.5 * get * 3) < 1e-12);
    assert.ok(Math.abs((lexical[2] ?? 0) - 0.5 * get) < 1e-12);
    // Scoring again gives the same: the scratch scores were left at zero, the buffer cleared.
    postings.score([term("file")]);
    assert.deepEqual(postings.score([term("read"), term("get", 0.5, "read")]).lexical, lexical);
  });

  it("scores a removed document 0 and leaves it out of the best score", () => {
    const postings = lists();
    postings.remove(1, ["file", "get"]);
    const { lexical, best } = postings.score([term("get")]);
    assert.equal(lexical[1], 0);
    assert.ok((lexical[2] ?? 0) > 0);
    assert.equal(best, lexical[2]);
    assert.equal(postings.has("file"), true);
    postings.remove(0, ["file", "read"]);
    assert.equal(postings.has("file"), false);
  });

  it("starts over on clear", () => {
    const postings = lists();
    postings.clear();
    assert.equal(postings.score([term("file")]).lexical.length, 0);
    postings.add(0, ["file"], [1]);
    assert.equal(postings.score([term("file")]).lexical.length, 1);
  });
});
