/**
 * Dot products of one quantised query vector with every quantised row of a matrix: the inner
 * loop of semantic search (vector-matrix.ts). Both kernels work on one linear memory addressed
 * by byte offsets, so the matrix lives where the fast one can read it.
 */
export interface DotKernel {
  /** The memory; a new buffer after `reserve` grows it, so views must then be made anew. */
  readonly buffer: ArrayBuffer;
  /** Makes the memory at least `bytes` long, keeping its contents. */
  reserve(bytes: number): void;
  /**
   * `out[r] = queryScale · scales[r] · Σ query[k] · matrix[r · stride + k]` (f32) for `r < rows`:
   * query and rows int8, `stride` bytes each (a positive multiple of 16), scales f32; byte
   * offsets, 16-aligned.
   */
  dots(
    query: number,
    matrix: number,
    rows: number,
    stride: number,
    scales: number,
    queryScale: number,
    out: number,
  ): void;
}

/** dot-kernel.wat assembled (wabt, SIMD enabled); dot-kernel.test.ts checks it matches the source. */
export const DOT_KERNEL_WASM =
  "AGFzbQEAAAABCwFgB39/f39/fX8AAwIBAAUDAQABBxECBm1lbW9yeQIABGRvdHMAAAq0BQGxBQIGfwh7IAYgAkF8cUECdGohByAGIAJBAnRqIQgCQANAIAYgB08NAf0MAAAAAAAAAAAAAAAAAAAAACEP/QwAAAAAAAAAAAAAAAAAAAAAIRD9DAAAAAAAAAAAAAAAAAAAAAAhEf0MAAAAAAAAAAAAAAAAAAAAACESIAEgA2ohCiAKIANqIQsgCyADaiEMQQAhCQNAIAAgCWr9AAQAIQ0gASAJav0ABAAhDiAPIA0gDv2cAf1+IA0gDv2dAf1+/a4B/a4BIQ8gCiAJav0ABAAhDiAQIA0gDv2cAf1+IA0gDv2dAf1+/a4B/a4BIRAgCyAJav0ABAAhDiARIA0gDv2cAf1+IA0gDv2dAf1+/a4B/a4BIREgDCAJav0ABAAhDiASIA0gDv2cAf1+IA0gDv2dAf1+/a4B/a4BIRIgCUEQaiEJIAkgA0kNAAsgDyAQ/Q0AAQIDEBESEwQFBgcUFRYXIA8gEP0NCAkKCxgZGhsMDQ4PHB0eH/2uASETIBEgEv0NAAECAxAREhMEBQYHFBUWFyARIBL9DQgJCgsYGRobDA0ODxwdHh/9rgEhFCAGIBMgFP0NAAECAwQFBgcQERITFBUWFyATIBT9DQgJCgsMDQ4PGBkaGxwdHh/9rgH9+gEgBP0ABAD95gEgBf0T/eYB/QsEACAMIANqIQEgBEEQaiEEIAZBEGohBgwACwsCQANAIAYgCE8NAf0MAAAAAAAAAAAAAAAAAAAAACEPQQAhCQNAIAAgCWr9AAQAIQ0gASAJav0ABAAhDiAPIA0gDv2cAf1+IA0gDv2dAf1+/a4B/a4BIQ8gCUEQaiEJIAkgA0kNAAsgBiAP/RsAIA/9GwFqIA/9GwIgD/0bA2pqsiAEKgIAlCAFlDgCACABIANqIQEgBEEEaiEEIAZBBGohBgwACwsL";

const PAGE_BYTES = 65_536;

/** The part of the WebAssembly API used here (the project's type libraries do not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The WebAssembly SIMD kernel, or undefined where the runtime lacks SIMD. */
export function wasmDotKernel(): DotKernel | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  const bytes = Buffer.from(DOT_KERNEL_WASM, "base64");
  if (!wasm?.validate(bytes)) return undefined;
  const { exports } = new wasm.Instance(new wasm.Module(bytes));
  const memory = exports.memory as WasmMemory;
  const dots = exports.dots as DotKernel["dots"];
  return {
    get buffer() {
      return memory.buffer;
    },
    reserve(bytes) {
      const missing = bytes - memory.buffer.byteLength;
      if (missing > 0) memory.grow(Math.ceil(missing / PAGE_BYTES));
    },
    dots,
  };
}

/** The same in plain JavaScript, for runtimes without WebAssembly SIMD. */
export function jsDotKernel(): DotKernel {
  let buffer = new ArrayBuffer(PAGE_BYTES);
  let bytes = new Int8Array(buffer);
  let floats = new Float32Array(buffer);
  return {
    get buffer() {
      return buffer;
    },
    reserve(size) {
      if (size <= buffer.byteLength) return;
      const grown = new ArrayBuffer(Math.ceil(size / PAGE_BYTES) * PAGE_BYTES);
      new Uint8Array(grown).set(new Uint8Array(buffer));
      buffer = grown;
      bytes = new Int8Array(buffer);
      floats = new Float32Array(buffer);
    },
    dots(query, matrix, rows, stride, scales, queryScale, out) {
      for (let row = 0, at = matrix; row < rows; row++, at += stride) {
        let sum = 0;
        for (let k = 0; k < stride; k++) sum += (bytes[query + k] as number) * (bytes[at + k] as number);
        // The products in float32, as the SIMD kernel takes them.
        floats[(out >> 2) + row] =
          Math.fround(sum * (floats[(scales >> 2) + row] as number)) * Math.fround(queryScale);
      }
    },
  };
}

/** The fastest kernel this runtime has. */
export function createDotKernel(): DotKernel {
  return wasmDotKernel() ?? jsDotKernel();
}
