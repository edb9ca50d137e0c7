import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { actionsOf } from "./actions.ts";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { ACTION_WEIGHT, analyzeQuery } from "./query.ts";
import { stem } from "./tokenize.ts";
import { toolDoc } from "./tool-doc.fixture.ts";

describe("actionsOf", () => {
  it("gives the verbs of one action the same action, and a thing none", () => {
    assert.deepEqual(actionsOf(stem("remove")), actionsOf(stem("delete")));
    assert.notDeepEqual(actionsOf(stem("list")), actionsOf(stem("delete")));
    assert.deepEqual(actionsOf(stem("message")), []);
  });
});

describe("the request's action", () => {
  const actionTerms = (query: string) =>
    analyzeQuery(query, undefined, false)
      .filter((entry) => entry.term.startsWith("~"))
      .map(({ term, weight }) => ({ term, weight }));

  it("is its first action word's, at ACTION_WEIGHT", () => {
    const [send] = actionsOf(stem("send"));
    assert.deepEqual(actionTerms("find the team channel, then send it a message"), [
      ...actionsOf(stem("find")).map((term) => ({ term, weight: ACTION_WEIGHT })),
    ]);
    assert.deepEqual(actionTerms("send a message to the team channel"), [
      { term: send, weight: ACTION_WEIGHT },
    ]);
    assert.deepEqual(actionTerms("the team channel"), []);
  });

  it("is left out when the stage is off", () => {
    const analyzed = analyzeQuery("send a message", undefined, false, { actions: false });
    assert.ok(!analyzed.some((entry) => entry.term.startsWith("~")));
  });
});

describe("search by the action a tool does", () => {
  // The listing tool matches more of the request's other words ("team", "channel", "Slack"
  // on every tool of the server); the posting tool does what the request asks.
  const docs = [
    toolDoc("list_channels", "List the team's channels", { server: "slack" }),
    toolDoc("post_message", "Post a message to a conversation", { server: "slack" }),
    toolDoc("get_users", "Get the users of the workspace", { server: "slack" }),
    toolDoc("send_email", "Send an email", { server: "mail" }),
    toolDoc("read_file", "Read a file", { server: "files" }),
  ];
  const first = (index: LexicalSearchIndex, query: string) => index.search(query, { limit: 1 })[0]?.name;
  const request = "send a message to the team channel on Slack";

  it("ranks the tool that does the action above one matching more of the other words", () => {
    // Words alone (no vectors, no dictionary, nothing learned from requests): the action match decides.
    const wordsAlone = {
      wordVectors: false,
      lexicon: false,
      requestWords: false,
      requestLikelihood: false,
      requestPairs: false,
    } as const;
    const index = new LexicalSearchIndex(wordsAlone);
    index.add(docs);
    assert.equal(first(index, request), "post_message");
    const withoutActions = new LexicalSearchIndex({ ...wordsAlone, actions: false });
    withoutActions.add(docs);
    assert.equal(first(withoutActions, request), "list_channels");
  });

  it("keeps it above the tools that neither send nor post with every stage on", () => {
    // The learned request words index "list channels" under "message" and "post" too (requests to
    // list a chat's channels often name messages), which puts it first here, and "send email"
    // under "message", which puts it second: a known limit of words learned by co-occurrence,
    // to be fixed, not hidden.
    const index = new LexicalSearchIndex();
    index.add(docs);
    const names = index.search(request, { limit: 3 }).map((hit) => hit.name);
    assert.ok(names.includes("post_message"), names.join());
  });
});
