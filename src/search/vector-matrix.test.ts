import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsDotKernel, wasmDotKernel } from "./dot-kernel.ts";
import { VectorMatrix } from "./vector-matrix.ts";

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
};

/** Stored as int8, a row's cosine is within this of the exact one (about 0.001 at 64 dimensions). */
const QUANTISED = 0.01;

/** A deterministic pseudo-random unit vector. */
function noise(seed: number, dimensions: number): Float32Array {
  let state = seed;
  return unit(
    ...Array.from({ length: dimensions }, () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return (state / 2_147_483_648) * 2 - 1;
    }),
  );
}

describe("VectorMatrix", () => {
  for (const [name, kernel] of [
    ["WebAssembly SIMD", wasmDotKernel],
    ["JavaScript", jsDotKernel],
  ] as const) {
    it(`${name}: scores present rows only`, () => {
      const matrix = new VectorMatrix(4, kernel());
      matrix.set(0, unit(1, 0, 0, 0));
      matrix.set(2, unit(0, 1, 0, 0));
      matrix.set(3, unit(1, 1, 0, 0));
      matrix.delete(3);
      const cosine = matrix.cosines(unit(1, 0, 0, 0));
      assert.equal(cosine.length, 4);
      assert.ok(Number.isNaN(cosine[3]), "slot 3 was deleted");
      assert.ok(Math.abs((cosine[0] ?? 0) - 1) < 1e-6);
      assert.ok(Number.isNaN(cosine[1]), "slot 1 was never set");
      assert.ok(Math.abs(cosine[2] ?? 1) < 1e-6);
      matrix.set(3, unit(1, 1, 0, 0));
      matrix.set(1, unit(0, 0, 1, 0));
      const again = matrix.cosines(unit(1, 0, 0, 0));
      assert.ok(Math.abs((again[3] ?? 0) - Math.SQRT1_2) < QUANTISED, "slot 3 set again");
      assert.ok(Math.abs(again[1] ?? 1) < 1e-6, "slot 1 set at last");
    });

    it(`${name}: gives each row's cosine within the int8 error, at any dimensions`, () => {
      for (const dimensions of [3, 64, 100]) {
        const matrix = new VectorMatrix(dimensions, kernel());
        const rows = Array.from({ length: 41 }, (_, slot) => noise(slot + 1, dimensions));
        for (const [slot, row] of rows.entries()) matrix.set(slot, row);
        const query = noise(1_000, dimensions);
        const cosine = matrix.cosines(query);
        rows.forEach((row, slot) => {
          const exact = row.reduce((sum, value, k) => sum + value * (query[k] ?? 0), 0);
          assert.ok(
            Math.abs((cosine[slot] ?? Number.NaN) - exact) < QUANTISED,
            `${dimensions} dimensions, row ${slot}: ${cosine[slot]} vs ${exact}`,
          );
        });
      }
    });

    it(`${name}: keeps rows and their scales when it grows, and forgets them all on clear`, () => {
      const matrix = new VectorMatrix(8, kernel());
      const first = unit(1, 2, 3, 4, 5, 6, 7, 8);
      matrix.set(0, first);
      // Rows of another scale than the first: a scale moved wrongly would show.
      for (let slot = 1; slot < 5_000; slot++) matrix.set(slot, unit(0, 0, 0, 0, 0, 0, 1, 1));
      const cosine = matrix.cosines(first);
      assert.equal(cosine.length, 5_000);
      assert.ok(Math.abs((cosine[0] ?? 0) - 1) < QUANTISED);
      const expected = (7 + 8) / Math.hypot(1, 2, 3, 4, 5, 6, 7, 8) / Math.SQRT2;
      assert.ok(Math.abs((cosine[4_999] ?? 0) - expected) < QUANTISED);
      matrix.clear();
      assert.equal(matrix.cosines(first).length, 0);
    });
  }

  it("rejects vectors its kernels cannot read", () => {
    assert.throws(() => new VectorMatrix(0), /0 dimensions, expected a positive integer/);
    assert.throws(() => new VectorMatrix(4).set(0, new Float32Array(8)), /8 components, expected 4/);
  });
});
