import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TopSlots, topSlots } from "./top-k.ts";

describe("topSlots", () => {
  it("keeps the k highest values, best first", () => {
    const values = Float64Array.from([0.2, 0.9, 0.1, 0.5, 0.7, 0.3]);
    assert.deepEqual(topSlots(values, 3), [1, 4, 3]);
    assert.deepEqual(topSlots(values, 10), [1, 4, 3, 5, 0, 2]);
    assert.deepEqual(topSlots(values, 0), []);
  });

  it("ranks the lower slot first among equal values, also at the cut", () => {
    const values = Float64Array.from([0.5, 0.8, 0.5, 0.8, 0.5]);
    assert.deepEqual(topSlots(values, 3), [1, 3, 0]);
  });

  it("skips NaN slots and those `accept` rejects", () => {
    const values = Float64Array.from([Number.NaN, 0.4, -0.2, Number.NaN, 0.9]);
    assert.deepEqual(topSlots(values, 5), [4, 1, 2]);
    assert.deepEqual(
      topSlots(values, 5, (slot) => slot !== 4),
      [1, 2],
    );
  });

  it("agrees with a full sort on many values", () => {
    let state = 7;
    const values = Float64Array.from({ length: 2_000 }, () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.round((state / 2_147_483_648) * 50) / 50;
    });
    const sorted = [...values.keys()].sort((a, b) => (values[b] ?? 0) - (values[a] ?? 0) || a - b);
    assert.deepEqual(topSlots(values, 25), sorted.slice(0, 25));
  });
});

describe("TopSlots", () => {
  it("raises its floor to the worst kept once full", () => {
    const top = new TopSlots(2);
    assert.equal(top.floor, Number.NEGATIVE_INFINITY);
    top.offer(0, 0.3);
    top.offer(1, 0.6);
    assert.equal(top.floor, 0.3);
    top.offer(2, 0.3);
    assert.deepEqual(top.best(), [1, 0], "a later equal value does not enter");
    top.offer(3, 0.9);
    assert.equal(top.floor, 0.6);
    assert.deepEqual(top.best(), [3, 1]);
  });
});
