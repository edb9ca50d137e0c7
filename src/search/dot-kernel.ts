/**
 * Dot products of one query vector with every row of a matrix: the inner loop of semantic
 * search (vector-matrix.ts). Both kernels work on one linear memory addressed by byte
 * offsets, so the matrix lives where the fast one can read it.
 */
export interface DotKernel {
  /** The memory; a new buffer after `reserve` grows it, so views must then be made anew. */
  readonly buffer: ArrayBuffer;
  /** Makes the memory at least `bytes` long, keeping its contents. */
  reserve(bytes: number): void;
  /** `out[r] = Σ query[k] · matrix[r · dimensions + k]` for `r < rows`; offsets 16-aligned, dimensions a multiple of 4. */
  dots(query: number, matrix: number, rows: number, dimensions: number, out: number): void;
}

/** dot-kernel.wat assembled (wabt, SIMD enabled); dot-kernel.test.ts checks it matches the source. */
export const DOT_KERNEL_WASM =
  "AGFzbQEAAAABCQFgBX9/f39/AAMCAQAFAwEAAQcRAgZtZW1vcnkCAARkb3RzAAAKsgQBrwQCB38HeyADQQJ0IQUgBCACQXxxQQJ0aiEGIAQgAkECdGohBwJAA0AgBCAGTw0B/QwAAAAAAAAAAAAAAAAAAAAAIQ39DAAAAAAAAAAAAAAAAAAAAAAhDv0MAAAAAAAAAAAAAAAAAAAAACEP/QwAAAAAAAAAAAAAAAAAAAAAIRAgASAFaiEJIAkgBWohCiAKIAVqIQtBACEIA0AgACAIav0ABAAhDCANIAwgASAIav0ABAD95gH95AEhDSAOIAwgCSAIav0ABAD95gH95AEhDiAPIAwgCiAIav0ABAD95gH95AEhDyAQIAwgCyAIav0ABAD95gH95AEhECAIQRBqIQggCCAFSQ0ACyANIA79DQABAgMQERITBAUGBxQVFhcgDSAO/Q0ICQoLGBkaGwwNDg8cHR4f/eQBIREgDyAQ/Q0AAQIDEBESEwQFBgcUFRYXIA8gEP0NCAkKCxgZGhsMDQ4PHB0eH/3kASESIAQgESAS/Q0AAQIDBAUGBxAREhMUFRYXIBEgEv0NCAkKCwwNDg8YGRobHB0eH/3kAf0LBAAgCyAFaiEBIARBEGohBAwACwsCQANAIAQgB08NAf0MAAAAAAAAAAAAAAAAAAAAACENQQAhCANAIA0gACAIav0ABAAgASAIav0ABAD95gH95AEhDSAIQRBqIQggCCAFSQ0ACyAEIA39HwAgDf0fAZIgDf0fAiAN/R8DkpI4AgAgASAFaiEBIARBBGohBAwACwsL";

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

/** The WebAssembly SIMD kernel (about 8× the plain loop), or undefined where the runtime lacks SIMD. */
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
  let floats = new Float32Array(buffer);
  return {
    get buffer() {
      return buffer;
    },
    reserve(bytes) {
      if (bytes <= buffer.byteLength) return;
      const grown = new ArrayBuffer(Math.ceil(bytes / PAGE_BYTES) * PAGE_BYTES);
      new Uint8Array(grown).set(new Uint8Array(buffer));
      buffer = grown;
      floats = new Float32Array(buffer);
    },
    dots(query, matrix, rows, dimensions, out) {
      const q = query >> 2;
      let at = matrix >> 2;
      for (let row = 0, o = out >> 2; row < rows; row++, o++) {
        // Four running sums, as the SIMD kernel keeps four lanes.
        let a = 0;
        let b = 0;
        let c = 0;
        let e = 0;
        for (let k = 0; k < dimensions; k += 4, at += 4) {
          a += (floats[q + k] as number) * (floats[at] as number);
          b += (floats[q + k + 1] as number) * (floats[at + 1] as number);
          c += (floats[q + k + 2] as number) * (floats[at + 2] as number);
          e += (floats[q + k + 3] as number) * (floats[at + 3] as number);
        }
        floats[o] = a + b + c + e;
      }
    },
  };
}

/** The fastest kernel this runtime has. */
export function createDotKernel(): DotKernel {
  return wasmDotKernel() ?? jsDotKernel();
}
