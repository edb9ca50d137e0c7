import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  entityWords,
  impliedActions,
  withoutEncodedData,
  withoutLocations,
  withoutQuotes,
} from "./entities.ts";
import { splitIntents } from "./intents.ts";
import { defaultLexicon } from "./lexicon.ts";
import { analyzeQuery, ENTITY_WEIGHT, LOCATION_WEIGHT, QUOTED_WEIGHT } from "./query.ts";
import { specificity } from "./specificity.ts";
import { stem } from "./tokenize.ts";

describe("analyzeQuery", () => {
  it("keeps the query's terms at weight 1 and adds related ones below it", () => {
    const analyzed = analyzeQuery("find a picture", defaultLexicon(), false);
    const weight = (word: string) => analyzed.find((entry) => entry.term === stem(word))?.weight;
    assert.equal(weight("picture"), 1);
    assert.equal(weight("find"), 1);
    // WordNet: picture ~ image; the domain table: find ~ search.
    assert.ok((weight("image") ?? 0) > 0 && (weight("image") ?? 1) < 1);
    assert.ok((weight("search") ?? 0) > 0 && (weight("search") ?? 1) < 1);
  });

  it("counts words found only in a file path or URL at the location weight", () => {
    const text =
      "Summarise bitcoin news and save it to /root/markdown/bitcoin.md, source https://example.com/feeds";
    assert.equal(withoutLocations(text).includes("/root"), false);
    assert.equal(withoutLocations(text).includes("example"), false);
    const analyzed = analyzeQuery(text, undefined, false);
    const weight = (word: string) => analyzed.find((entry) => entry.term === stem(word))?.weight;
    assert.equal(weight("bitcoin"), 1, "said outright as well as in the path");
    assert.equal(weight("root"), LOCATION_WEIGHT);
    assert.equal(weight("feeds"), LOCATION_WEIGHT);
    assert.equal(weight("save"), 1);
  });

  it("relates the words people use for a knowledge graph to the graph's own", () => {
    const terms = analyzeQuery("remember facts about a person", undefined, false).map((entry) => entry.term);
    for (const word of ["memory", "observation", "entity"]) assert.ok(terms.includes(stem(word)), word);
  });

  it("expands nothing without a lexicon except the software synonyms", () => {
    const analyzed = analyzeQuery("save notes", undefined, false);
    assert.deepEqual(
      analyzed.filter((entry) => entry.weight === 1).map((entry) => entry.term),
      ["save", "note"],
    );
    assert.ok(analyzed.some((entry) => entry.term === "write" && entry.source === "save"));
  });

  it("scales every weight by its source word's specificity", () => {
    const plain = analyzeQuery("find a picture", defaultLexicon(), false);
    const scaled = analyzeQuery("find a picture", defaultLexicon());
    assert.equal(scaled.length, plain.length);
    for (const [at, entry] of scaled.entries()) {
      assert.equal(entry.weight, (plain[at]?.weight ?? 0) * specificity(entry.source));
    }
    assert.ok(scaled.some((entry) => entry.weight < (plain.find((p) => p.term === entry.term)?.weight ?? 0)));
  });

  it("adds the words implied by paths, URLs and extensions", () => {
    assert.equal(entityWords("save it to /root/out/report.md"), "file path markdown");
    assert.equal(entityWords("summarise https://example.com/a.html"), "url web page fetch");
    assert.equal(entityWords("plain words"), "");
    assert.equal(
      entityWords("summarize it in /root/ppt/apple.pptx."),
      "file path powerpoint presentation slide",
    );
    assert.equal(entityWords("the tests of lib.js/"), "");
    const analyzed = analyzeQuery("keep /tmp/a.xlsx", undefined, false);
    assert.equal(analyzed.find((entry) => entry.term === stem("spreadsheet"))?.weight, ENTITY_WEIGHT);
  });

  it("weighs words only in quotes down, and does not expand them", () => {
    const weightOf = (query: string, word: string) =>
      analyzeQuery(query, defaultLexicon(), false).find((entry) => entry.term === stem(word))?.weight;
    const query = 'find the painting "Corridor in the Asylum" and give me some background';
    assert.equal(weightOf(query, "corridor"), QUOTED_WEIGHT);
    assert.equal(weightOf(query, "painting"), 1);
    assert.equal(weightOf("the effect text of 'Sky Striker Ace'", "striker"), QUOTED_WEIGHT);
    assert.ok(
      !analyzeQuery(query, defaultLexicon(), false).some(
        (entry) => entry.source === stem("asylum") && entry.term !== entry.source,
      ),
    );
    // Apostrophes inside words quote nothing; a request all in quotes is the request.
    assert.equal(weightOf("improve my website's ranking, don't wait", "ranking"), 1);
    assert.equal(weightOf("“weather in Paris”", "weather"), 1);
    assert.equal(withoutQuotes("a ‘Causes of the Fall’ article, 'MCP' papers"), "a   article,   papers");
    assert.equal(
      withoutQuotes(`read "Ender's Game" and play 'Don't Stop Me Now' loud`),
      "read   and play   loud",
    );
    assert.equal(
      withoutQuotes(`it's 'odd" here`),
      `it's 'odd" here`,
      "quotes of two kinds pair with nothing",
    );
  });

  it("takes a bare host name as a domain", () => {
    const domain = (text: string) => entityWords(text).split(" ").includes("domain");
    assert.ok(domain("Is the site amaz0n.com official?"));
    assert.ok(domain("Run a full reconnaissance on www.baidu.com."));
    assert.ok(!domain("Summarise https://example.com/a/b"), "a page, not a domain");
    assert.ok(!domain("mail bob@corp.com"));
    assert.ok(!domain("open /srv/site.com/index.html and report.md"));
  });

  it("names the registry or format of a well-known identifier", () => {
    const implies = (text: string, words: string) => entityWords(text).split(" ").includes(words);
    assert.ok(implies("Introduce me to the article on arxiv 2203.12277", "arxiv"));
    assert.ok(implies("summarise 2401.00001v2", "arxiv"));
    assert.ok(implies("cite 10.1038/nphys1170 in APA", "doi"));
    assert.ok(implies("Generate a research summary for NCT04280705", "clinical"));
    assert.ok(implies("abstract of PMID: 31452104", "pubmed"));
    assert.ok(implies("who published ISBN 978-0-262-03384-8?", "isbn"));
    assert.ok(implies("who owns 203.0.113.7?", "ip"));
    assert.ok(implies("what is at 48.8584, 2.2945", "coordinates"));
    assert.ok(implies("use #ff8800 for the title", "color"));
    assert.ok(implies("Move OPS-212 to Done", "issue"));
    assert.ok(implies("is CVE-2024-3094 patched?", "vulnerability"));
    assert.ok(implies("roll the web app back to v3.8.1", "version"));
    assert.ok(implies("is 3.0.0-beta.2 newer than 2.9.9?", "version"));
    assert.ok(implies("run SELECT count(*) FROM orders WHERE paid", "sql"));
    assert.ok(implies("set NODE_ENV=production on the api", "environment"));
    assert.ok(implies("does 30 3 1 * * run monthly?", "cron"));
    assert.ok(implies("when does */15 2 * * * fire?", "cron"));
    assert.ok(implies("3pm America/New_York in Europe/London", "timezone"));
    assert.ok(implies("holders of 0x55d398326f99059fF775485246999027B3197955", "wallet"));
    assert.ok(
      implies("status of 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060", "transaction"),
    );
    assert.ok(implies("how did $AAPL close?", "stock"));
    assert.ok(implies("text +44 20 7946 0958 the code", "phone"));
    // Look-alikes: a standard's or model's name, a quarter, an IP address, a price, plain words in capitals.
    for (const [text, word] of [
      ["hash it with SHA-256", "issue"],
      ["COVID-19 cases in GPT-4 answers", "issue"],
      ["the Q3-2024 report", "issue"],
      ["who owns 10.0.0.12?", "version"],
      ["it costs $25", "stock"],
      ["select the rows from the sheet", "sql"],
      ["at 9 15 on 3 4 2025", "cron"],
    ] as const)
      assert.ok(!implies(text, word), text);
    // Look-alikes: a price, a version, a date, a path's digits.
    for (const text of ["it costs 1999.99", "upgrade to 1.2.3.4.5", "on 2024.01.15", "/root/2203.12277x/a"])
      assert.equal(entityWords(text).includes("arxiv") || entityWords(text).includes("ip"), false, text);
  });

  it("reads data pasted into the task as data, not as words", () => {
    const blob =
      "iVBORw0KGgoAAAANSUhEUgAAAgAAAAIACAYAAAD0eNT6AAAABHNCSVQICAgIfAhkiAAAAAlwSFlzAAAN1wAADdcBQiib";
    const query = `What does this image mean? ${blob}`;
    assert.equal(withoutEncodedData(query).trim(), "What does this image mean?");
    assert.ok(entityWords(query).split(" ").includes("base64"));
    const terms = (text: string) => new Set(analyzeQuery(text, undefined, false).map((entry) => entry.term));
    const plain = terms("What does this image mean?");
    const added = [...terms(query)].filter((term) => !plain.has(term));
    assert.deepEqual(added.sort(), ["base64", "data", "encod"]);
    // A long path or a word run is not data.
    const path =
      "/root/projects/archive/reports/quarterly/finance/department/summary/final/version/latest/doc";
    assert.equal(withoutEncodedData(path), path);
  });

  it("takes a path the task saves to as asking for a tool that writes files", () => {
    const writes = (text: string) => impliedActions(text) === "write";
    assert.ok(writes("Summarise the paper and save it as Markdown to /root/notes/paper.md."));
    assert.ok(writes("generate a detailed report in ~/reports/daily.md"));
    assert.ok(writes('Export the table into "./out/table.csv"'));
    assert.ok(!writes("Read the file /root/word/exchange.docx and tell me who is missing"));
    assert.ok(!writes("save the page https://example.com/a/b"), "a URL is not a place to write");
    assert.ok(!writes("Save the draft. Then list /root/drafts"), "the path belongs to another sentence");
    const weight = (word: string) =>
      analyzeQuery("save it to /tmp/notes.md", undefined, false).find((entry) => entry.term === stem(word))
        ?.weight;
    assert.equal(weight("write"), 1, "as if the task said it");
  });
});

describe("splitIntents", () => {
  it("splits a multi-step task into clauses and leaves short queries whole", () => {
    assert.deepEqual(splitIntents("read a file"), []);
    assert.deepEqual(
      splitIntents(
        "Fetch the latest bitcoin price, draw a line chart of the week and save the report to disk",
      ),
      ["Fetch the latest bitcoin price", "draw a line chart of the week", "save the report to disk"],
    );
  });
});
