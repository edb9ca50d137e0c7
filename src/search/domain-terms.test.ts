import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DOMAIN_TERM_WEIGHT, DomainTerms, defaultDomainTerms, MEANING_DECAY } from "./domain-terms.ts";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { analyzeQuery } from "./query.ts";
import { toolDoc } from "./tool-doc.fixture.ts";

const table = new DomainTerms([
  "=\tpr\tpull request|merge request",
  ">\tkill switch\tfeature flag",
  ">\tshut down\tstop",
  ">\tkill\tterminate",
  ":\ttrello\tboard|kanban",
  "?\tbad\tkind",
  ">\tno right side",
  ">\tseven words is far far too long\tx",
]);

const weightsOf = (query: string, terms: DomainTerms | boolean = table) =>
  new Map(
    analyzeQuery(query, undefined, false, { domainTerms: terms, actions: false }).map((entry) => [
      entry.term,
      entry.weight,
    ]),
  );

describe("domain terms", () => {
  it("reads what a phrase stands for, both ways for an abbreviation, skipping malformed lines", () => {
    assert.deepEqual(
      table.expand("open a PR").map((found) => found.terms.map(({ term }) => term)),
      [["pull", "request", "merg"]],
    );
    const back = table.expand("review the pull request");
    assert.deepEqual(
      back.map((found) => found.terms.map(({ term }) => term)),
      [["pr"]],
    );
    assert.equal(table.expand("seven words is far far too long").length, 0);
    assert.equal(table.expand("bad").length, 0);
  });

  it("tells a product named like a derived word from the word, and skips phrases of function words", () => {
    const products = new DomainTerms([":\tcheckly\tuptime", ">\tlikes\treactions", ">\tquery\tsql"]);
    assert.deepEqual(products.expand("check the site"), []);
    assert.equal(products.expand("Checkly checks")[0]?.terms[0]?.term, "uptim");
    assert.deepEqual(products.expand("Bob likes tea"), []);
    assert.equal(products.expand("two queries")[0]?.terms[0]?.term, "sql", "an inflected word still matches");
  });

  it("tells an agent noun from its verb, and matches it in the singular and plural", () => {
    const table = new DomainTerms([">	followers	audience"]);
    assert.deepEqual(table.expand("follow the steps"), []);
    assert.equal(table.expand("my follower count")[0]?.terms[0]?.term, "audienc");
    assert.equal(table.expand("list Followers")[0]?.terms[0]?.term, "audienc");
  });

  it("matches function words inside a phrase and prefers the longest phrase", () => {
    assert.deepEqual(
      table.expand("please shut down the box").map((found) => found.source),
      ["shut"],
    );
    const [switchPhrase, ...rest] = table.expand("add a kill switch");
    assert.deepEqual(
      switchPhrase?.terms.map(({ term }) => term),
      ["featur", "flag"],
    );
    assert.equal(rest.length, 0, "kill inside the phrase starts no phrase of its own");
    assert.deepEqual(
      table.expand("kill the job").map((found) => found.terms.map(({ term }) => term)),
      [["termin"]],
    );
  });

  it("weighs a phrase's meanings below the request's own words, later meanings less", () => {
    const weights = weightsOf("move the Trello card");
    assert.equal(weights.get("trello"), 1);
    assert.equal(weights.get("board"), DOMAIN_TERM_WEIGHT);
    assert.equal(weights.get("kanban"), DOMAIN_TERM_WEIGHT * MEANING_DECAY);
    assert.equal(weightsOf("a board of trello cards").get("board"), 1, "never lowers a request word");
    assert.equal(weightsOf("move the Trello card", false).has("board"), false);
  });

  it("finds the tool a request names in other words, and says which request word matched", () => {
    const docs = [
      toolDoc("create_pull_request", "Create a new pull request from a branch"),
      toolDoc("create_branch", "Create a new branch"),
      toolDoc("create_feature_flag", "Create a feature flag to turn a feature on or off"),
    ];
    // Words alone, nor learned request words: the table decides.
    const alone = { wordVectors: false, lexicon: false, requestWords: false } as const;
    const index = new LexicalSearchIndex({ domainTerms: table, ...alone });
    index.add(docs);
    const [pr, next] = index.search("open a PR", { limit: 3 });
    assert.equal(pr?.name, "create_pull_request");
    assert.deepEqual(pr?.matched, ["PR"]);
    assert.ok((pr?.score ?? 0) > (next?.score ?? 0) * 1.5, `${pr?.score} vs ${next?.score}`);
    assert.equal(
      index.search("add a kill switch for checkout", { limit: 1 })[0]?.name,
      "create_feature_flag",
    );
    const plain = new LexicalSearchIndex({ domainTerms: false, ...alone });
    plain.add(docs);
    // Without the table "PR" is only a guess at a word's beginning: no tool stands out.
    const [first, second] = plain.search("open a PR", { limit: 3 });
    assert.equal(first?.score, second?.score);
  });

  it("indexes a tool under what its products and abbreviations stand for, not its everyday phrases", () => {
    assert.deepEqual(table.documentTerms("Move a card on a Trello board"), ["kanban"]);
    assert.deepEqual(table.documentTerms("Review a PR"), ["pull", "request", "merg"]);
    assert.deepEqual(table.documentTerms("Shut down the machine"), [], "a tool's words mean what they say");
    const index = new LexicalSearchIndex({ domainTerms: table, wordVectors: false, lexicon: false });
    index.add([toolDoc("move_card", "Move a card in Trello"), toolDoc("move_file", "Move a file")]);
    assert.equal(index.search("kanban", { limit: 1 })[0]?.name, "move_card");
  });

  it("ships a table of abbreviations, jargon, everyday phrases and products", () => {
    const shipped = defaultDomainTerms();
    assert.ok(shipped.size >= 1000, `${shipped.size} phrases`);
    const pr = shipped.expand("open a PR")[0]?.terms.map(({ term }) => term) ?? [];
    assert.ok(pr.includes("pull"), pr.join(" "));
  });
});
