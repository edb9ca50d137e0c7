import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seeded } from "../bench/corpus-set.ts";
import { FIT_DEFAULTS, fitToolVectors, type TrainingPair } from "../scripts/search-data/tool-vectors/fit.ts";
import { toolDoc } from "../src/search/tool-doc.fixture.ts";
import { encodeWordVectors, WordVectors } from "../src/search/word-vectors.ts";

const WORDS = ["remove", "photo", "delete", "asset", "mail", "colleague", "send", "message", "unused"];
const DIMENSIONS = 8;

function randomTable(): WordVectors {
  const random = seeded(5);
  const values = Float32Array.from({ length: WORDS.length * DIMENSIONS }, () => random() * 2 - 1);
  return new WordVectors(encodeWordVectors(WORDS, values, DIMENSIONS));
}

const documents = new Map([
  ["media/delete_asset", toolDoc("delete_asset", "Delete an asset", { server: "media" })],
  ["chat/send_message", toolDoc("send_message", "Send a message", { server: "chat" })],
]);
const pairs: TrainingPair[] = [
  { request: "remove the photo", tool: "media/delete_asset", also: [], server: "media" },
  { request: "mail my colleague", tool: "chat/send_message", also: [], server: "chat" },
];

function similarity(vectors: WordVectors, a: string, b: string): number {
  const x = new Float32Array(vectors.dimensions);
  const y = new Float32Array(vectors.dimensions);
  assert.ok(vectors.embed(a, x) && vectors.embed(b, y));
  return x.reduce((sum, value, k) => sum + value * (y[k] ?? 0), 0);
}

describe("fitting tool vectors", () => {
  const general = randomTable();
  const fit = (blend: number) =>
    fitToolVectors(general, pairs, documents, seeded(1), {
      ...FIT_DEFAULTS,
      epochs: 30,
      batchServers: 2,
      perServer: 1,
      blend,
    });

  it("pulls each request towards its tool and away from the other tools", () => {
    const rows = fit(1);
    const fitted = new WordVectors(
      encodeWordVectors(WORDS, general.rows(), DIMENSIONS),
      encodeWordVectors(rows.words, rows.vectors, DIMENSIONS),
    );
    const margin = (vectors: WordVectors, request: string, tool: string, other: string) =>
      similarity(vectors, request, tool) - similarity(vectors, request, other);
    for (const [request, tool, other] of [
      ["remove the photo", "delete asset", "send message"],
      ["mail my colleague", "send message", "delete asset"],
    ] as const) {
      const before = margin(general, request, tool, other);
      const after = margin(fitted, request, tool, other);
      // The loss saturates once the margin is a few temperatures wide: then it only holds.
      assert.ok(
        after > Math.min(before + 0.1, 0.5),
        `${request}: ${before.toFixed(3)} → ${after.toFixed(3)}`,
      );
    }
  });

  it("writes only the words of the requests and tools it learned from", () => {
    const rows = fit(1);
    assert.deepEqual(rows.words.sort(), WORDS.filter((word) => word !== "unused").sort());
    assert.equal(rows.vectors.length, rows.words.length * DIMENSIONS);
  });

  it("keeps the general rows with a blend of 0", () => {
    const rows = fit(0);
    const general8 = general.rows();
    rows.words.forEach((word, at) => {
      const rank = WORDS.indexOf(word);
      assert.deepEqual(
        [...rows.vectors.subarray(at * DIMENSIONS, (at + 1) * DIMENSIONS)],
        [...general8.subarray(rank * DIMENSIONS, (rank + 1) * DIMENSIONS)],
      );
    });
  });

  it("names a request whose tool is missing", () => {
    const orphan = [{ request: "play a song", tool: "music/play", also: [], server: "music" }];
    assert.throws(
      () => fitToolVectors(general, orphan, documents, seeded(1)),
      /no tool music\/play for the request "play a song"/,
    );
  });
});
