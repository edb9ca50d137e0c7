import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blendSteps, CLAUSE_WEIGHT, MIN_DEVIATION, standardise } from "./semantic-fusion.ts";

describe("standardise", () => {
  it("takes the mean and spread of the defined cosines only", () => {
    const { mean, deviation } = standardise(Float32Array.from([1, Number.NaN, 0]));
    assert.ok(Math.abs(mean - 0.5) < 1e-6);
    assert.ok(Math.abs(deviation - 0.5) < 1e-6);
  });

  it("never lets a flat spread blow noise up", () => {
    assert.equal(standardise(Float32Array.from([0.4, 0.4, 0.4])).deviation, MIN_DEVIATION);
    assert.deepEqual(standardise(new Float32Array(0)), {
      cosine: new Float32Array(0),
      mean: 0,
      deviation: MIN_DEVIATION,
    });
  });
});

describe("blendSteps", () => {
  it("mixes each document's similarity to the whole task with its best step", () => {
    const whole = Float32Array.from([0.2, 0.6, Number.NaN]);
    const blended = blendSteps(whole, [
      Float32Array.from([0.9, 0.1, Number.NaN]),
      Float32Array.from([0.3, 0.5, Number.NaN]),
    ]);
    const expected = [
      (1 - CLAUSE_WEIGHT) * 0.2 + CLAUSE_WEIGHT * 0.9,
      (1 - CLAUSE_WEIGHT) * 0.6 + CLAUSE_WEIGHT * 0.5,
    ];
    for (const [slot, value] of expected.entries()) assert.ok(Math.abs((blended[slot] ?? 0) - value) < 1e-6);
    assert.ok(Number.isNaN(blended[2]), "a document without a vector stays without");
  });

  it("leaves a one-step request as it is", () => {
    const whole = Float32Array.from([0.2, 0.6]);
    assert.deepEqual([...blendSteps(whole, [])], [...Float32Array.from([0.2, 0.6])]);
  });
});
