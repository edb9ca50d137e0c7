import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { wordCoverage } from "./word-coverage.ts";

describe("wordCoverage", () => {
  it("gives per request word the best of its terms the document holds, in the unit asked", () => {
    const groups = [
      [
        { term: "stock", factor: 2 },
        { term: "share", factor: 1 },
      ],
      [{ term: "ppt", factor: 3 }],
      [{ term: "chart", factor: 1 }],
    ];
    const coverage = wordCoverage(groups, ["share", "ppt", "other"], [0.5, 0.2, 1], 0.5);
    assert.deepEqual(
      [...coverage].map((value) => Number(value.toFixed(6))),
      [0.25, 0.3, 0],
    );
  });
});
