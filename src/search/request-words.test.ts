import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { defaultRequestWords, MAX_REQUEST_WORDS, RequestWords, toolWords } from "./request-words.ts";
import { toolDoc } from "./tool-doc.fixture.ts";

const table = new RequestWords([
  "delet\tremov:0.5 old:0.2",
  "asset\tphoto:0.3 upload:0.4",
  "send\tmail:0.3",
  "broken line without a tab",
  "imag\tphoto:x",
]);

describe("request words", () => {
  it("adds the request words a document's words predict together, strongest first, none it has", () => {
    assert.equal(table.size, 3);
    assert.deepEqual(table.expand(new Set(["delet", "asset"])), ["remov", "upload", "photo", "old"]);
    assert.deepEqual(table.expand(new Set(["delet", "remov"])), ["old"]);
    assert.deepEqual(table.expand(new Set()), []);
  });

  it("leaves out weak predictions, diluted by a long text", () => {
    const many = new Set(["send", ...Array.from({ length: 99 }, (_, at) => `w${at}`)]);
    assert.deepEqual(table.expand(many), []);
  });

  it("reads a tool by its name, title and the start of its description", () => {
    const words = toolWords(
      toolDoc("delete_asset", `Delete an asset. ${"padding ".repeat(200)}Restores it.`),
    );
    assert.ok(words.has("delet") && words.has("asset"));
    assert.ok(!words.has("restor"));
  });

  it("finds a tool by the words requests use for it, and reports the request's word", () => {
    const docs = [
      toolDoc("delete_asset", "Delete an asset"),
      toolDoc("publish_entry", "Publish an entry"),
      toolDoc("remove_member", "Take a member off the team"),
    ];
    const learned = new LexicalSearchIndex({ requestWords: table, wordVectors: false, lexicon: false });
    learned.add(docs);
    const hits = learned.search("upload a photo", { limit: 3 });
    assert.equal(hits[0]?.name, "delete_asset");
    assert.deepEqual(hits[0]?.matched, ["upload", "photo"]);
    const plain = new LexicalSearchIndex({ requestWords: false, wordVectors: false, lexicon: false });
    plain.add(docs);
    assert.ok(!plain.search("upload a photo", { limit: 3 }).some((hit) => hit.name === "delete_asset"));
  });

  it("ships a table learned from tool requests, which indexes a few words per tool", () => {
    const shipped = defaultRequestWords();
    assert.ok(shipped.size >= 500, `${shipped.size} tool words`);
    const added = shipped.expand(toolWords(toolDoc("delete_file", "Delete a file")));
    assert.ok(added.length > 0 && added.length <= MAX_REQUEST_WORDS, added.join(" "));
  });
});
