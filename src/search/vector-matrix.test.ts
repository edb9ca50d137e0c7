import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsDotKernel, wasmDotKernel } from "./dot-kernel.ts";
import { VectorMatrix } from "./vector-matrix.ts";

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
};

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
    });

    it(`${name}: keeps rows when it grows, and forgets them all on clear`, () => {
      const matrix = new VectorMatrix(8, kernel());
      const first = unit(1, 2, 3, 4, 5, 6, 7, 8);
      matrix.set(0, first);
      for (let slot = 1; slot < 5_000; slot++) matrix.set(slot, unit(0, 0, 0, 0, 0, 0, 0, 1));
      const cosine = matrix.cosines(first);
      assert.equal(cosine.length, 5_000);
      assert.ok(Math.abs((cosine[0] ?? 0) - 1) < 1e-6);
      matrix.clear();
      assert.equal(matrix.cosines(first).length, 0);
    });
  }

  it("rejects vectors its kernels cannot read", () => {
    assert.throws(() => new VectorMatrix(6), /6 dimensions, expected a positive multiple of 4/);
    assert.throws(() => new VectorMatrix(4).set(0, new Float32Array(8)), /8 components, expected 4/);
  });
});
