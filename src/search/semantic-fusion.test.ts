import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  blendSteps,
  CLAUSE_WEIGHT,
  fusedTop,
  fusion,
  MIN_DEVIATION,
  rankValue,
  SEMANTIC_ONLY_MIN_COSINE,
  SEMANTIC_WEIGHT,
  type Similarities,
  standardise,
} from "./semantic-fusion.ts";

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

describe("fusion", () => {
  const similarities: Similarities = { cosine: new Float32Array(0), mean: 0.2, deviation: 0.1 };
  const fused = fusion(2, similarities);

  it("ranks a matched document by its share of the best lexical score plus the weighted z-score", () => {
    const z = (0.45 - 0.2) / 0.1;
    assert.ok(Math.abs(rankValue(fused, 1, 0.45) - (0.5 + SEMANTIC_WEIGHT * z)) < 1e-12);
    assert.equal(rankValue(fused, 2, Number.NaN), 1, "no vector: the lexical share alone");
  });

  it("admits a document matched by meaning alone only past both floors", () => {
    // z ≥ 1 but under the cosine floor; past both (z = 2.5); past the cosine floor at z = 0.5.
    assert.ok(Number.isNaN(rankValue(fused, 0, SEMANTIC_ONLY_MIN_COSINE - 0.01)));
    assert.ok(Math.abs(rankValue(fused, 0, 0.45) - SEMANTIC_WEIGHT * 2.5) < 1e-12);
    assert.ok(Number.isNaN(rankValue(fusion(2, { ...similarities, mean: 0.4 }), 0, 0.45)));
    assert.ok(Number.isNaN(rankValue(fused, 0, Number.NaN)));
  });

  it("keeps the best candidates in one pass, skipping those `accept` rejects", () => {
    const lexical = Float64Array.from([0, 2, 1, 0, 1.5]);
    const cosine = Float32Array.from([0.9, 0.2, 0.6, 0.1, Number.NaN]);
    const s = { ...similarities, cosine };
    const f = fusion(2, s);
    const values = [0, 1, 2, 3, 4].map((slot) =>
      rankValue(f, lexical[slot] ?? 0, cosine[slot] ?? Number.NaN),
    );
    assert.ok(Number.isNaN(values[3]), "slot 3 is no candidate");
    const expected = [0, 1, 2, 4].sort((a, b) => (values[b] ?? 0) - (values[a] ?? 0));
    assert.deepEqual(fusedTop(lexical, cosine, f, 3), expected.slice(0, 3));
    assert.deepEqual(
      fusedTop(lexical, cosine, f, 3, (slot) => slot !== expected[0]),
      expected.slice(1, 4),
    );
  });

  it("ranks as `rankValue` does, over many slots, some without a vector or past the vectors' end", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const lexical = Float64Array.from({ length: 500 }, () => (random() < 0.3 ? random() * 4 : 0));
    const cosine = Float32Array.from({ length: 460 }, () => (random() < 0.05 ? Number.NaN : random()));
    const f = fusion(4, standardise(cosine));
    const value = (slot: number) =>
      rankValue(f, lexical[slot] ?? 0, slot < cosine.length ? (cosine[slot] ?? Number.NaN) : Number.NaN);
    const expected = [...lexical.keys()]
      .filter((slot) => !Number.isNaN(value(slot)))
      .sort((a, b) => value(b) - value(a) || a - b);
    assert.ok(
      expected.some((slot) => (lexical[slot] ?? 0) === 0),
      "a slot found by meaning alone",
    );
    assert.ok(
      expected.some((slot) => slot >= cosine.length),
      "a slot past the vectors",
    );
    assert.deepEqual(fusedTop(lexical, cosine, f, 40), expected.slice(0, 40));
  });
});
