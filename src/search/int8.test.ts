import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { quantiseInt8 } from "./int8.ts";

describe("quantiseInt8", () => {
  it("takes the largest magnitude to 127 and every value to within half a step", () => {
    const values = [0.5, -1.27, 0.003, 1];
    const out = new Int8Array(4);
    const scale = quantiseInt8(values, out);
    assert.ok(Math.abs(scale - 0.01) < 1e-12);
    assert.deepEqual([...out], [50, -127, 0, 100]);
    for (const [k, value] of values.entries())
      assert.ok(Math.abs((out[k] ?? 0) * scale - value) <= scale / 2);
  });

  it("gives an all-zero vector zeros at scale 1, and leaves the rest of `out` alone", () => {
    const out = Int8Array.from([9, 9, 9]);
    assert.equal(quantiseInt8([0, 0], out), 1);
    assert.deepEqual([...out], [0, 0, 9]);
  });
});
