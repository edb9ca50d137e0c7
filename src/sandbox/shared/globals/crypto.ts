import { domException } from "./dom-exception.ts";

/** Most bytes one getRandomValues call fills (Web Crypto's limit). */
export const MAX_RANDOM_BYTES = 65_536;

/** Fills `length` fresh random bytes; in the isolate tier, a copy of the host's CSPRNG output. */
export type RandomSource = (length: number) => Uint8Array;

const INTEGER_ARRAYS = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  BigInt64Array,
  BigUint64Array,
];

/** `crypto` with `getRandomValues` and `randomUUID`, drawing on `random`. */
export function makeCrypto(random: () => RandomSource | undefined): {
  getRandomValues<T extends ArrayBufferView>(array: T): T;
  randomUUID(): string;
} {
  const fill = (length: number): Uint8Array => {
    const source = random();
    if (source === undefined) throw new Error("crypto: no source of randomness in this sandbox");
    const bytes = source(length);
    if (!(bytes instanceof Uint8Array) || bytes.length !== length)
      throw new Error("crypto: the source of randomness failed");
    return bytes;
  };
  return {
    getRandomValues<T extends ArrayBufferView>(array: T): T {
      if (!INTEGER_ARRAYS.some((Type) => array instanceof Type)) {
        throw domException("getRandomValues: the array must be an integer TypedArray", "TypeMismatchError");
      }
      if (array.byteLength > MAX_RANDOM_BYTES) {
        throw domException(
          `getRandomValues: the ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (${MAX_RANDOM_BYTES})`,
          "QuotaExceededError",
        );
      }
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(fill(array.byteLength));
      return array;
    },
    randomUUID(): string {
      const bytes = fill(16);
      bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
      bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
      let hex = "";
      for (let index = 0; index < 16; index += 1) {
        hex += ((bytes[index] as number) + 0x100).toString(16).slice(1);
        if (index === 3 || index === 5 || index === 7 || index === 9) hex += "-";
      }
      return hex;
    },
  };
}
