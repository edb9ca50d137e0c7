import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StemRows } from "./stem-rows.ts";

describe("stem rows", () => {
  it("gives each row's stems and weights in order, empty rows included, at the precision asked", () => {
    const rows = new StemRows([
      [
        "file",
        [
          ["document", 0.3],
          ["folder", 0.21],
        ],
      ],
      ["none", []],
      ["read", [["document", 0.1]]],
    ]);
    const seen = (key: string) => {
      const out: [string, number][] = [];
      rows.forEach(key, (stem, weight) => out.push([stem, weight]));
      return out;
    };
    assert.equal(rows.size, 3);
    assert.deepEqual(seen("file"), [
      ["document", 0.3],
      ["folder", 0.21],
    ]);
    assert.deepEqual(seen("read"), [["document", 0.1]]);
    assert.deepEqual(seen("none"), []);
    assert.deepEqual(seen("missing"), []);
    const single = new StemRows([["file", [["document", 0.3]]]], Float32Array);
    single.forEach("file", (_, weight) => assert.equal(weight, Math.fround(0.3)));
  });
});
