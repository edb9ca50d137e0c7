import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { LIKELIHOOD_WEIGHT, LikelihoodRerank, likelihoodText, withLikelihood } from "./likelihood-rerank.ts";
import {
  defaultRequestLikelihood,
  RequestLikelihood,
  requestStems,
  SOURCE_DESCRIPTION_WORDS,
  toolSourceWords,
} from "./request-likelihood.ts";
import { toolDoc } from "./tool-doc.fixture.ts";

// "rid" (as in "get rid of") comes from deleting, "tweak" from updating; "ticket" from issues.
const table = new RequestLikelihood([
  "rid\t0.01\t0.001\tdelet:0.3 remov:0.2",
  "tweak\t0.01\t0.001\tupdat:0.25 edit:0.2",
  "ticket\t0.02\t0.002\tissu:0.3",
  "old\t0.01\t0.05\t",
  "broken line",
  "zero\t0\t0\tissu:0.5",
]);

// Siblings a request's words match alike, so only the reordering tells them apart.
const widgets = [
  toolDoc("twiddle_widget", "Twiddle a widget"),
  toolDoc("frobnicate_widget", "Frobnicate a widget"),
  toolDoc("polish_widget", "Polish a widget"),
];
const [frobnicate = "", polish = ""] = widgets.slice(1).map((doc) => toolSourceWords(doc)[0]);
/** An index that ranks by its own words and the request likelihood alone. */
const lexicalOnly = { wordVectors: false, lexicon: false, requestWords: false, domainTerms: false } as const;

describe("request likelihood", () => {
  it("reads the table's request words, leaving out malformed lines", () => {
    assert.equal(table.size, 4);
    assert.equal(table.word("rid")?.background, 0.01);
    assert.equal(table.word("rid")?.anyTool, 0.001);
    assert.equal(table.word("zero"), undefined);
    const tweak = table.word("tweak");
    assert.deepEqual([...(tweak?.sources ?? [])], [table.sourceNumber("updat"), table.sourceNumber("edit")]);
    assert.deepEqual(
      [...(tweak?.probabilities ?? [])].map((p) => p.toFixed(2)),
      ["0.25", "0.20"],
    );
    assert.equal(table.word("old")?.sources.length, 0);
    assert.equal(table.sourceCount, 5, "delet remov updat edit issu; none of the malformed lines");
  });

  it("reads a tool by its name twice and the start of its description, words only", () => {
    const words = toolSourceWords(
      toolDoc("delete_issue", `Deletes an issue by id 42. ${"filler ".repeat(60)}Restores nothing.`),
    );
    assert.deepEqual(words.slice(0, 6), ["delet", "issu", "delet", "issu", "delet", "issu"]);
    assert.equal(words.length, 4 + SOURCE_DESCRIPTION_WORDS);
    assert.ok(!words.includes("42") && !words.includes("restor"));
    assert.deepEqual(requestStems("Get rid of ticket #12"), ["get", "rid", "ticket"]);
  });

  it("finds a request likelier from the tool whose words it translates", () => {
    const rerank = new LikelihoodRerank(table);
    const sources = [
      rerank.sources(toolDoc("update_issue", "Update an issue")),
      rerank.sources(toolDoc("delete_issue", "Delete an issue")),
      undefined,
    ];
    const [update = 0, remove = 0, none = 0] = rerank.likelihoods("get rid of the old ticket", sources) ?? [];
    assert.ok(remove > update && update > none, `${remove} ${update} ${none}`);
    const [tweaked = 0, removed = 0] = rerank.likelihoods("tweak the ticket", sources) ?? [];
    assert.ok(tweaked > removed, `${tweaked} ${removed}`);
    // Nothing the table or the index knows: no likelihoods at all.
    assert.equal(rerank.likelihoods("zzz qqq", sources), undefined);
  });

  it("reads a request word's sources anew once the index has new words", () => {
    const rerank = new LikelihoodRerank(table);
    const update = rerank.sources(toolDoc("update_issue", "Update an issue"));
    const [alone = 0] = rerank.likelihoods("get rid of the old ticket", [update]) ?? [];
    // "delet" is a source of "rid" no document had at the first search.
    const remove = rerank.sources(toolDoc("delete_issue", "Delete an issue"));
    const [updated = 0, removed = 0] =
      rerank.likelihoods("get rid of the old ticket", [update, remove]) ?? [];
    assert.equal(updated, alone);
    assert.ok(removed > updated, `${removed} ${updated}`);
  });

  it("counts a word the table lacks only as one a tool holds", () => {
    const rerank = new LikelihoodRerank(table);
    const sources = [
      rerank.sources(toolDoc("list_widgets", "List widgets")),
      rerank.sources(toolDoc("list_gadgets", "List gadgets")),
    ];
    const [widgets = 0, gadgets = 0] = rerank.likelihoods("widgets", sources) ?? [];
    assert.ok(widgets > gadgets);
  });

  it("lifts each score by the weight, less the further its likelihood trails the likeliest", () => {
    const moved = withLikelihood([0.85, 0.8, 0.7], Float64Array.from([-6, -3, -3]));
    assert.ok(Math.abs(moved[1]! - (0.8 + LIKELIHOOD_WEIGHT)) < 1e-12);
    assert.ok(Math.abs(moved[2]! - (0.7 + LIKELIHOOD_WEIGHT)) < 1e-12);
    assert.ok(Math.abs(moved[0]! - (0.85 + LIKELIHOOD_WEIGHT * Math.exp(-3))) < 1e-12);
    assert.ok(moved[1]! > moved[0]!, "a lead smaller than the weight can be overtaken");
    assert.deepEqual(withLikelihood([0.5, 0.4], undefined), [0.5, 0.4]);
  });

  it("reorders siblings that match a request's words alike, and only with the table", () => {
    const zorp = new RequestLikelihood([`zorp\t0.01\t0.001\t${frobnicate}:0.4`, "widget\t0.02\t0.01\t"]);
    const request = "zorp my widget";
    const plain = new LexicalSearchIndex({ ...lexicalOnly, requestLikelihood: false });
    plain.add(widgets);
    const learned = new LexicalSearchIndex({ ...lexicalOnly, requestLikelihood: zorp });
    learned.add(widgets);
    const before = plain.search(request, { limit: 3 });
    const after = learned.search(request, { limit: 3 });
    assert.equal(before.length, 3);
    assert.notEqual(before[0]?.name, "frobnicate_widget");
    assert.equal(after[0]?.name, "frobnicate_widget");
    assert.ok(after[0]!.score > after[1]!.score, "shown scores follow the new order");
    // A limit below the reordered head still gets the head's best.
    assert.equal(learned.search(request, { limit: 1 })[0]?.name, "frobnicate_widget");
  });

  it("reads a request without its file paths, with what saving to one implies, its URLs kept", () => {
    const saving = likelihoodText("Summarise the report and save it to /root/markdown/report.md");
    assert.deepEqual(requestStems(saving), ["summaris", "report", "save", "write"]);
    assert.deepEqual(requestStems(likelihoodText("open ~/notes/todo.txt")), ["open"]);
    const page = "list the comments on https://github.com/acme/app/issues/7";
    assert.equal(likelihoodText(page), page);
  });

  it("weighs a request's words outside its paths: a folder's name is not what it asks for", () => {
    const learned = new LexicalSearchIndex({
      ...lexicalOnly,
      requestPairs: false,
      requestLikelihood: new RequestLikelihood([
        `zorp\t0.01\t0.001\t${frobnicate}:0.4`,
        `buff\t0.01\t0.001\t${polish}:0.3`,
        "widget\t0.02\t0.01\t",
      ]),
    });
    learned.add(widgets);
    assert.equal(learned.search("zorp the widget", { limit: 3 })[0]?.name, "frobnicate_widget");
    // "zorp" names a folder here: only "buff" says what to do.
    const inPath = learned.search("buff up the widget listed in /srv/zorp/widgets.txt", { limit: 3 });
    assert.equal(inPath[0]?.name, "polish_widget", inPath.map((hit) => hit.name).join(" "));
  });

  it("ships a table learned from tool requests", () => {
    const shipped = defaultRequestLikelihood();
    assert.ok(shipped.size >= 5000, `${shipped.size} request words`);
    const rerank = new LikelihoodRerank(shipped);
    const sources = [
      rerank.sources(toolDoc("create_event", "Create a calendar event")),
      rerank.sources(toolDoc("delete_event", "Delete a calendar event")),
    ];
    const [create = 0, remove = 0] = rerank.likelihoods("cancel my dentist appointment", sources) ?? [];
    assert.ok(remove > create, `${remove} ${create}`);
  });
});
