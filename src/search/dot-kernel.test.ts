import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import wabt from "wabt";
import { DOT_KERNEL_WASM, type DotKernel, jsDotKernel, wasmDotKernel } from "./dot-kernel.ts";

/** A deterministic pseudo-random sequence of int8 values, -128..127 (the kernels must agree on any data). */
function* noise(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    yield Math.floor((state / 2_147_483_648) * 256) - 128;
  }
}

function check(kernel: DotKernel, rows: number, stride: number): void {
  const matrixAt = 1024;
  const scalesAt = matrixAt + rows * stride;
  const outAt = scalesAt + rows * 4;
  kernel.reserve(outAt + rows * 4);
  const values = noise(rows * 131 + stride);
  const query = new Int8Array(kernel.buffer, 0, stride);
  const matrix = new Int8Array(kernel.buffer, matrixAt, rows * stride);
  const scales = new Float32Array(kernel.buffer, scalesAt, rows);
  for (let k = 0; k < stride; k++) query[k] = values.next().value as number;
  for (let i = 0; i < matrix.length; i++) matrix[i] = values.next().value as number;
  for (let row = 0; row < rows; row++) scales[row] = 0.001 * (1 + (row % 7));
  const queryScale = 0.003;
  kernel.dots(0, matrixAt, rows, stride, scalesAt, queryScale, outAt);
  const out = new Float32Array(kernel.buffer, outAt, rows);
  for (let row = 0; row < rows; row++) {
    let sum = 0;
    for (let k = 0; k < stride; k++) sum += (query[k] ?? 0) * (matrix[row * stride + k] ?? 0);
    // Exact integer sums, then two float32 products: the kernels agree to the bit.
    const expected = Math.fround(Math.fround(sum * (scales[row] ?? 0)) * Math.fround(queryScale));
    assert.equal(out[row], expected, `row ${row}`);
  }
}

describe("dot kernels", () => {
  const kernels: [string, () => DotKernel | undefined][] = [
    ["WebAssembly SIMD", wasmDotKernel],
    ["JavaScript", jsDotKernel],
  ];
  for (const [name, make] of kernels) {
    it(`${name}: computes every row's scaled int8 dot product, four rows at a time and the rest`, () => {
      const kernel = make();
      assert.ok(kernel, "this runtime has WebAssembly SIMD");
      // 37 and 6 rows leave 1 and 2 for the one-row loop; 0 rows writes nothing; -128 × -128 fits.
      for (const [rows, stride] of [
        [0, 16],
        [1, 16],
        [37, 32],
        [6, 16],
        [300, 64],
      ] as const)
        check(kernel, rows, stride);
    });

    it(`${name}: keeps its memory's contents when it grows`, () => {
      const kernel = make();
      assert.ok(kernel);
      new Float32Array(kernel.buffer, 16, 2).set([1.5, -2]);
      kernel.reserve(kernel.buffer.byteLength * 3 + 1);
      assert.ok(kernel.buffer.byteLength > 65_536 * 3);
      assert.deepEqual([...new Float32Array(kernel.buffer, 16, 2)], [1.5, -2]);
    });
  }

  it("embeds the binary of dot-kernel.wat", async () => {
    const source = readFileSync(new URL("./dot-kernel.wat", import.meta.url), "utf8");
    const module = (await wabt()).parseWat("dot-kernel.wat", source, { simd: true });
    const { buffer } = module.toBinary({});
    module.destroy();
    assert.equal(Buffer.from(buffer).toString("base64"), DOT_KERNEL_WASM);
  });
});
