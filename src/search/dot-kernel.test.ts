import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import wabt from "wabt";
import { DOT_KERNEL_WASM, type DotKernel, jsDotKernel, wasmDotKernel } from "./dot-kernel.ts";

/** A deterministic pseudo-random sequence in -1..1 (the kernels must agree on any data). */
function* noise(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    yield (state / 2_147_483_648) * 2 - 1;
  }
}

function check(kernel: DotKernel, rows: number, dimensions: number): void {
  const matrixAt = 1024;
  const outAt = matrixAt + rows * dimensions * 4;
  kernel.reserve(outAt + rows * 4);
  const values = noise(rows * 131 + dimensions);
  const query = new Float32Array(kernel.buffer, 0, dimensions);
  const matrix = new Float32Array(kernel.buffer, matrixAt, rows * dimensions);
  for (let k = 0; k < dimensions; k++) query[k] = values.next().value as number;
  for (let i = 0; i < matrix.length; i++) matrix[i] = values.next().value as number;
  kernel.dots(0, matrixAt, rows, dimensions, outAt);
  const out = new Float32Array(kernel.buffer, outAt, rows);
  for (let row = 0; row < rows; row++) {
    let expected = 0;
    for (let k = 0; k < dimensions; k++) expected += (query[k] ?? 0) * (matrix[row * dimensions + k] ?? 0);
    assert.ok(Math.abs((out[row] ?? Number.NaN) - expected) < 1e-5, `row ${row}: ${out[row]} vs ${expected}`);
  }
}

describe("dot kernels", () => {
  const kernels: [string, () => DotKernel | undefined][] = [
    ["WebAssembly SIMD", wasmDotKernel],
    ["JavaScript", jsDotKernel],
  ];
  for (const [name, make] of kernels) {
    it(`${name}: computes every row's dot product, whatever the dimensions' multiple of 4`, () => {
      const kernel = make();
      assert.ok(kernel, "this runtime has WebAssembly SIMD");
      // 12 takes the SIMD kernel's four-component tail; 0 rows writes nothing.
      for (const [rows, dimensions] of [
        [0, 8],
        [1, 4],
        [37, 12],
        [6, 8],
        [300, 64],
      ] as const)
        check(kernel, rows, dimensions);
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
