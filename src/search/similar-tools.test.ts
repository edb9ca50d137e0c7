import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { documentEmbeddingText } from "./embedded-text.ts";
import { LexicalSearchIndex } from "./lexical-index.ts";
import {
  defaultSimilarTools,
  formatKnownTool,
  type KnownTool,
  MAX_BORROWED_WORDS,
  parseKnownTool,
  SimilarTools,
  similarToolsFrom,
} from "./similar-tools.ts";
import { toolDoc } from "./tool-doc.fixture.ts";
import type { SearchDocument } from "./types.ts";
import { defaultWordVectors } from "./word-vectors.ts";

/** A unit vector of 4 components along `axis`, tilted towards the next axis by `tilt`. */
function unit(axis: number, tilt = 0): Float32Array {
  const vector = new Float32Array(4);
  vector[axis % 4] = 1;
  vector[(axis + 1) % 4] = tilt;
  const norm = Math.hypot(1, tilt);
  return vector.map((value) => value / norm);
}

const known: KnownTool[] = [
  {
    vector: unit(0),
    stems: [
      ["bounc", 2],
      ["restart", 1],
    ],
    requestVector: unit(1),
  },
  {
    vector: unit(0, 0.3),
    stems: [
      ["reboot", 1.5],
      ["bounc", 1],
    ],
  },
  { vector: unit(2), stems: [["invoic", 3]], requestVector: unit(3) },
];

describe("similar tools", () => {
  const table = new SimilarTools(known);

  it("lends the words of the known tools near a vector, weighted by similarity, none the tool has", () => {
    assert.equal(table.size, 3);
    assert.deepEqual(table.borrow(unit(0), new Set()).words, ["bounc", "reboot", "restart"]);
    assert.deepEqual(table.borrow(unit(0), new Set(["bounc"])).words, ["reboot", "restart"]);
  });

  it("moves the embedding a little towards what the similar known tools are asked with", () => {
    const { vector } = table.borrow(unit(0), new Set());
    const [x = 0, y = 0, z = 0, w = 0] = vector;
    assert.ok(y > 0.05 && y < x, `towards the requests (${[...vector]})`);
    assert.equal(z, 0, "not towards a tool that is not similar");
    assert.equal(w, 0);
    assert.ok(Math.abs(Math.hypot(x, y, z, w) - 1) < 1e-6, "unit length");
  });

  it("lends nothing when no known tool is similar enough", () => {
    const far = unit(1, -0.2);
    assert.deepEqual(table.borrow(far, new Set()), { words: [], vector: far });
    const other = new Float32Array(8);
    assert.deepEqual(table.borrow(other, new Set()).words, [], "other dimensions compare with nothing");
  });

  it("lends at most MAX_BORROWED_WORDS", () => {
    const many = new SimilarTools([
      {
        vector: unit(3),
        stems: Array.from({ length: 40 }, (_, at): [string, number] => [`w${at}`, 40 - at]),
      },
    ]);
    const lent = many.borrow(unit(3), new Set()).words;
    assert.equal(lent.length, MAX_BORROWED_WORDS);
    assert.equal(lent[0], "w0");
  });

  it("reads back what it writes, and skips malformed lines", () => {
    const line = formatKnownTool("s/restart_app", {
      vector: Float32Array.from([2, -1, 0, 0.5]),
      stems: [["bounc", 1.25]],
      requestVector: Float32Array.from([0, 3, 0, 0]),
    });
    const parsed = parseKnownTool(line);
    assert.ok(parsed);
    assert.deepEqual([...(parsed.requestVector ?? [])], [0, 1, 0, 0]);
    const withoutRequests = formatKnownTool("s/x", { vector: unit(0), stems: [["bounc", 1]] });
    assert.equal(parseKnownTool(withoutRequests)?.requestVector, undefined);
    const written = [2, -1, 0, 0.5];
    const norm = Math.hypot(...written);
    for (const [k, value] of parsed.vector.entries())
      assert.ok(Math.abs(value - (written[k] ?? 0) / norm) < 0.01, `component ${k}`);
    assert.deepEqual(parsed.stems, [["bounc", 1.25]]);
    assert.equal(parseKnownTool("s/x\tnot-a-number\tAAAA\t\t\tbounc:1"), undefined);
    assert.equal(parseKnownTool("s/x\t0.1\tAAAAAA==\t\t\tbounc:1"), undefined, "all-zero vector");
    assert.equal(
      parseKnownTool("s/x\t0.1\tAQAAAA==\t0.1\tAQAAAAAAAAA=\tbounc:1"),
      undefined,
      "requests in other dimensions",
    );
    assert.equal(similarToolsFrom([line, "s/broken", "s/y\t0.1"]).size, 1);
  });

  it("indexes a tool under the words requests use for the known tools most like it", () => {
    const vectors = defaultWordVectors();
    assert.ok(vectors, "the shipped vectors");
    const embedding = (doc: SearchDocument) => {
      const out = new Float32Array(vectors.dimensions);
      assert.ok(vectors.embed(documentEmbeddingText(doc), out));
      return out;
    };
    // A restart tool of another server, asked for as "bounce" there.
    const restart = toolDoc("restart_service", "Restart a running service", { server: "other" });
    const similar = new SimilarTools([{ vector: embedding(restart), stems: [["bounc", 3]] }]);
    const docs = [
      toolDoc("reload_application", "Restart the application's containers"),
      toolDoc("list_invoices", "List invoices of a customer"),
    ];
    // Other expansions off, so a match on "bounce" can only come from the known tool.
    const alone = { lexicon: false, requestWords: false, domainTerms: false } as const;
    const withKnown = new LexicalSearchIndex({ similarTools: similar, ...alone });
    withKnown.add(docs);
    const hit = withKnown.search("bounce the api", { limit: 2 })[0];
    assert.equal(hit?.name, "reload_application");
    assert.deepEqual(hit?.matched, ["bounce"]);
    const without = new LexicalSearchIndex({ similarTools: false, ...alone });
    without.add(docs);
    assert.deepEqual(without.search("bounce the api", { limit: 2 })[0]?.matched ?? [], []);
  });

  it("ships known tools of the training corpus, which lend a few words to a new tool", () => {
    const shipped = defaultSimilarTools();
    assert.ok(shipped.size >= 3000, `${shipped.size} known tools`);
    const vectors = defaultWordVectors();
    assert.ok(vectors);
    const vector = new Float32Array(vectors.dimensions);
    assert.ok(vectors.embed(documentEmbeddingText(toolDoc("delete_file", "Delete a file")), vector));
    const lent = shipped.borrow(vector, new Set(["delet", "file"])).words;
    assert.ok(lent.length > 0 && lent.length <= MAX_BORROWED_WORDS, lent.join(" "));
  });
});
