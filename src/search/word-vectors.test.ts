import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { toolDoc as doc } from "./tool-doc.fixture.ts";
import { defaultWordVectors, encodeWordVectors, WordVectors } from "./word-vectors.ts";

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, value, k) => sum + value * (b[k] ?? 0), 0);

function embedding(vectors: WordVectors, text: string): Float32Array {
  const out = new Float32Array(vectors.dimensions);
  assert.ok(vectors.embed(text, out), `no known word in "${text}"`);
  return out;
}

describe("word vectors", () => {
  it("round-trips a table through the file format, within int8 precision", () => {
    const words = ["alpha", "beta", "gamma"];
    const values = Float32Array.from([1, 0, 0.5, 0, -2, 0.25, 1, 0, 0, 3, -3, 0]);
    const table = new WordVectors(encodeWordVectors(words, values, 4));
    assert.equal(table.size, 3);
    assert.equal(table.dimensions, 4);
    const beta = embedding(table, "beta");
    const norm = Math.hypot(-2, 0.25, 1);
    for (const [k, value] of [-2, 0.25, 1, 0].entries())
      assert.ok(Math.abs((beta[k] ?? 0) - value / norm) < 0.01);
    // Function words and unknown words add nothing; a text of only those has no embedding.
    assert.equal(table.embed("the zzqx of", new Float32Array(4)), false);
  });

  it("rejects a file that is not a table, saying why", () => {
    const good = encodeWordVectors(["alpha"], Float32Array.from([1, 2, 3, 4]), 4);
    assert.throws(
      () => new WordVectors(Buffer.from("nope, not vectors at all")),
      /not a version 1 "TSWV" file/,
    );
    assert.throws(() => new WordVectors(good.subarray(0, good.length - 1)), /bytes, expected/);
    // The similarity loop takes four components at a time.
    const odd = encodeWordVectors(["alpha"], Float32Array.from([1, 2, 3]), 3);
    assert.throws(() => new WordVectors(odd), /3 dimensions, expected a positive multiple of 4/);
  });

  it("reads an overlay over the table: its words replace theirs, words the table lacks are left out", () => {
    const words = ["alpha", "beta"];
    const table = encodeWordVectors(words, Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0]), 4);
    const overlay = encodeWordVectors(["beta", "omega"], Float32Array.from([0, 0, 1, 0, 1, 1, 1, 1]), 4);
    const merged = new WordVectors(table, overlay);
    assert.equal(merged.size, 2);
    assert.deepEqual([...embedding(merged, "beta")], [0, 0, 1, 0]);
    assert.deepEqual([...embedding(merged, "alpha")], [1, 0, 0, 0]);
    assert.equal(merged.embed("omega", new Float32Array(4)), false);
    assert.deepEqual([...merged.rows()], [1, 0, 0, 0, 0, 0, 1, 0]);
    const wide = encodeWordVectors(["beta"], new Float32Array(8), 8);
    assert.throws(() => new WordVectors(table, wide), /overlay has 8 dimensions, the table 4/);
  });

  it("weighs the words of a text as embed does: stop words out, rarer words more", () => {
    const table = new WordVectors(encodeWordVectors(["common", "rare"], new Float32Array(8).fill(1), 4));
    const weights = table.weightedWords("the common rare rare");
    assert.deepEqual([...weights.keys()], [0, 1]);
    assert.ok((weights.get(1) ?? 0) > 2 * (weights.get(0) ?? 0) * 0.9, "rare twice, and rarer");
  });

  it("ships a table that places related requests near each other", () => {
    const vectors = defaultWordVectors();
    assert.ok(vectors !== undefined && vectors.size >= 50_000, `${vectors?.size} words`);
    const weather = embedding(vectors, "weather forecast for the next days");
    const rain = embedding(vectors, "will it rain tomorrow");
    const email = embedding(vectors, "send an email to my colleague");
    assert.ok(
      cosine(weather, rain) > cosine(weather, email) + 0.1,
      `${cosine(weather, rain)} vs ${cosine(weather, email)}`,
    );
  });
});

describe("LexicalSearchIndex with word vectors", () => {
  const docs = [
    doc("get_forecast", "Weather forecast for a city: temperature, wind and precipitation."),
    doc("send_email", "Send an email message to a recipient."),
    doc("create_invoice", "Create an invoice for a customer."),
    doc("play_song", "Play a song or an album on the speaker."),
    doc("translate_text", "Translate text between languages."),
  ];

  it("finds a tool by meaning when no word of the request is in its description", () => {
    const withVectors = new LexicalSearchIndex();
    const lexicalOnly = new LexicalSearchIndex({ wordVectors: false });
    withVectors.add(docs);
    lexicalOnly.add(docs);
    const query = "I want to listen to some jazz";
    assert.deepEqual(lexicalOnly.search(query), []);
    const [hit, ...rest] = withVectors.search(query);
    assert.equal(hit?.id, "s/play_song");
    assert.ok(hit !== undefined && hit.score > 0 && hit.score < 0.5, `${hit?.score}`);
    assert.deepEqual(rest, [], "documents merely less unlike the request are not results");
  });

  it("keeps lexical matches first when the words say it, and scores in ranking order", () => {
    const index = new LexicalSearchIndex();
    index.add(docs);
    const hits = index.search("translate this text into French");
    assert.equal(hits[0]?.id, "s/translate_text");
    for (let i = 1; i < hits.length; i++) assert.ok((hits[i - 1]?.score ?? 0) >= (hits[i]?.score ?? 0));
    assert.deepEqual(index.search("zzqx"), []);
  });

  it("keeps each document's vector through compaction of the index", () => {
    const index = new LexicalSearchIndex();
    const jazz = "I want to listen to some jazz";
    for (let round = 0; round < 40; round++) {
      // 20 documents a round: removed ones soon outnumber live ones, which compacts the slots.
      const filler = Array.from({ length: 19 }, (_, i) =>
        doc(`invoice_${round}_${i}`, `Create invoice number ${i} for a customer.`, { server: "s" }),
      );
      const last = round === 39;
      index.replaceServer(
        "s",
        [...filler, last ? docs[3] : docs[0]].filter((d) => d !== undefined),
      );
      if (round === 38) assert.deepEqual(index.search(jazz), []);
    }
    assert.deepEqual(
      index.search(jazz).map((hit) => hit.id),
      ["s/play_song"],
    );
  });

  it("forgets a removed document's vector", () => {
    const index = new LexicalSearchIndex();
    index.add(docs);
    index.remove(["s/play_song"]);
    assert.deepEqual(
      index.search("I want to listen to some jazz").map((hit) => hit.id),
      [],
    );
  });
});
