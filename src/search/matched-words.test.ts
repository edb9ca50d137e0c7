import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { groupWords, matchedWords } from "./matched-words.ts";
import { MemorySearchIndex } from "./memory-index.ts";
import { toolDoc } from "./tool-doc.fixture.ts";
import type { SearchIndex } from "./types.ts";

const docs = [
  toolDoc("send_email", "Send an email message."),
  toolDoc("play_song", "Play a song by title."),
  toolDoc("read_file", "Read a file from disk."),
  toolDoc("create_issue", "Create an issue in a repository."),
  toolDoc("get_weather", "Current weather for a city."),
  toolDoc("list_events", "List calendar events."),
];

function indexOf(index: SearchIndex): SearchIndex {
  index.add(docs);
  return index;
}

const matchedBy = (index: SearchIndex, query: string, name: string) =>
  index.search(query, { limit: 10 }).find((hit) => hit.name === name)?.matched;

describe("the request words a hit matched", () => {
  // Without the learned request words, which index "send email" also under "report" (tested in
  // request-words.test.ts), nor the words borrowed from similar known tools (similar-tools.test.ts).
  const index = indexOf(new LexicalSearchIndex({ requestWords: false, similarTools: false }));

  it("lists the request's word a tool matched", () => {
    assert.deepEqual(matchedBy(index, "email the report to Ana", "send_email"), ["email"]);
  });

  it("names the request word a synonym came from, not the synonym", () => {
    // "mail" reaches the description's "email" as a synonym.
    assert.deepEqual(matchedBy(index, "mail the report to Ana", "send_email"), ["mail"]);
  });

  it("keeps the words as written, in the request's order", () => {
    assert.deepEqual(matchedBy(index, "Issue: create one", "create_issue"), ["Issue", "create"]);
  });

  it("is empty for a hit found by meaning alone", () => {
    const hits = index.search("listen to some jazz", { limit: 3 });
    assert.equal(hits[0]?.name, "play_song");
    assert.deepEqual(hits[0]?.matched, []);
  });

  it("names a word the request implies by itself (a path's format)", () => {
    assert.deepEqual(matchedBy(index, "save notes to /tmp/notes.md", "read_file"), ["file"]);
  });

  it("comes from the word-overlap index too", () => {
    const memory = indexOf(new MemorySearchIndex());
    assert.deepEqual(matchedBy(memory, "read my file", "read_file"), ["read", "file"]);
  });
});

describe("matchedWords", () => {
  it("counts a group only when the document gains from it", () => {
    const query = [
      { term: "send", weight: 1, source: "send" },
      { term: "email", weight: 1, source: "email" },
      { term: "mail", weight: 0.5, source: "email" },
    ];
    const groups = [[{ term: "send", factor: 1 }], [{ term: "mail", factor: 0.5 }]];
    const words = groupWords("Send e-mail? No: send EMAIL", query, groups);
    assert.deepEqual(words.words, ["Send", "EMAIL"]);
    assert.deepEqual(matchedWords(words, groups, ["mail", "post"], [1, 1]), ["EMAIL"]);
    assert.deepEqual(matchedWords(words, groups, ["mail", "send"], [1, 0]), ["EMAIL"]);
    assert.deepEqual(matchedWords(words, groups, ["post"], [1]), []);
  });
});
