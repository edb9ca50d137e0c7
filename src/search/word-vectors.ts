import { readFileSync } from "node:fs";
import { STOPWORDS } from "./stopwords.ts";
import { words } from "./tokenize.ts";
import { readUnknownWord } from "./unknown-words.ts";

/**
 * Static English word vectors (data/search/word-vectors.bin; see
 * scripts/search-data/build-word-vectors.ts for how they are made) and the text embedding built
 * from them: the weighted mean of a text's word vectors, each word weighted by its rarity (SIF,
 * Arora et al. 2017), so "calculator" counts more than "make".
 *
 * File format, little-endian: "TSWV", u32 version, u32 words, u32 dimensions, u32 byte length
 * of the word list; the words (UTF-8, "\n"-separated, most frequent first); zero padding to a
 * multiple of 4; one f32 scale per word; then `words × dimensions` int8 components.
 */
const MAGIC = "TSWV";
const VERSION = 1;
const HEADER_BYTES = 20;

/** SIF's smoothing `a` in a / (a + p(word)). */
const SIF_SMOOTHING = 1e-3;

/**
 * A word's weight in a text's embedding, from its frequency rank in a vocabulary of
 * `vocabularySize` words; the table's fitting (scripts/search-data/build-word-vectors.ts) uses the
 * same.
 */
export function sifWeight(rank: number, vocabularySize: number): number {
  // Zipf's law estimates a word's probability from its frequency rank.
  const probability = 1 / ((rank + 10) * Math.log(vocabularySize));
  return SIF_SMOOTHING / (SIF_SMOOTHING + probability);
}

const align4 = (n: number) => (n + 3) & ~3;

/** The file bytes for `vectors` (`words.length × dimensions` floats, row per word), int8-quantised per word. */
export function encodeWordVectors(
  list: readonly string[],
  vectors: Float32Array,
  dimensions: number,
): Buffer {
  const wordBytes = Buffer.from(list.join("\n"), "utf8");
  const scalesAt = HEADER_BYTES + align4(wordBytes.length);
  const componentsAt = scalesAt + list.length * 4;
  const out = Buffer.alloc(componentsAt + list.length * dimensions);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(VERSION, 4);
  out.writeUInt32LE(list.length, 8);
  out.writeUInt32LE(dimensions, 12);
  out.writeUInt32LE(wordBytes.length, 16);
  wordBytes.copy(out, HEADER_BYTES);
  for (let w = 0; w < list.length; w++) {
    let max = 0;
    for (let k = 0; k < dimensions; k++) max = Math.max(max, Math.abs(vectors[w * dimensions + k] ?? 0));
    const scale = max / 127 || 1;
    out.writeFloatLE(scale, scalesAt + w * 4);
    for (let k = 0; k < dimensions; k++) {
      out.writeInt8(
        Math.round((vectors[w * dimensions + k] ?? 0) / scale),
        componentsAt + w * dimensions + k,
      );
    }
  }
  return out;
}

export class WordVectors {
  readonly dimensions: number;
  readonly #rank = new Map<string, number>();
  readonly #scales: Float32Array;
  readonly #components: Int8Array;
  /** Per word: SIF weight × int8 scale, computed on first embedding. */
  #weights: Float32Array | undefined;

  constructor(bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const magic = String.fromCharCode(...bytes.subarray(0, 4));
    if (magic !== MAGIC || view.getUint32(4, true) !== VERSION) {
      throw new Error(`word vectors: not a version ${VERSION} "${MAGIC}" file`);
    }
    const count = view.getUint32(8, true);
    this.dimensions = view.getUint32(12, true);
    // The similarity kernels (dot-kernel.ts) take four components at a time.
    if (this.dimensions === 0 || this.dimensions % 4 !== 0) {
      throw new Error(`word vectors: ${this.dimensions} dimensions, expected a positive multiple of 4`);
    }
    const wordBytes = view.getUint32(16, true);
    const list = new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + wordBytes)).split("\n");
    if (list.length !== count)
      throw new Error(`word vectors: ${list.length} words listed, header says ${count}`);
    for (const [rank, word] of list.entries()) this.#rank.set(word, rank);
    const scalesAt = bytes.byteOffset + HEADER_BYTES + align4(wordBytes);
    const expected = HEADER_BYTES + align4(wordBytes) + count * 4 + count * this.dimensions;
    if (bytes.byteLength !== expected)
      throw new Error(`word vectors: ${bytes.byteLength} bytes, expected ${expected}`);
    // Copies, so the views are aligned whatever the buffer's offset.
    this.#scales = new Float32Array(bytes.buffer.slice(scalesAt, scalesAt + count * 4));
    this.#components = new Int8Array(
      bytes.buffer.slice(scalesAt + count * 4, scalesAt + count * 4 + count * this.dimensions),
    );
  }

  get size(): number {
    return this.#rank.size;
  }

  /**
   * A word's frequency rank (0 = the most frequent), undefined outside the vocabulary. One
   * function per table, so the look-ups that depend on it can be cached by it (compounds.ts).
   */
  readonly rankOf = (word: string): number | undefined => this.#rank.get(word);

  /** The vocabulary, most frequent word first. */
  get words(): IterableIterator<string> {
    return this.#rank.keys();
  }

  /**
   * The unit-length embedding of a text, written into `out` (length `dimensions`); a word
   * outside the vocabulary counts as the known words it reads as (unknown-words.ts).
   * False when nothing is in the vocabulary.
   */
  embed(text: string, out: Float32Array): boolean {
    out.fill(0);
    let found = false;
    for (const word of words(text)) {
      if (STOPWORDS.has(word)) continue;
      const rank = this.#rank.get(word);
      if (rank !== undefined) found = this.#accumulate(rank, out);
      else
        for (const known of readUnknownWord(word, this.rankOf)) {
          const read = this.#rank.get(known);
          if (read !== undefined) found = this.#accumulate(read, out);
        }
    }
    if (!found) return false;
    const d = this.dimensions;
    let norm = 0;
    for (let k = 0; k < d; k++) norm += (out[k] ?? 0) ** 2;
    norm = Math.sqrt(norm);
    if (norm === 0) return false;
    for (let k = 0; k < d; k++) out[k] = (out[k] ?? 0) / norm;
    return true;
  }

  /** Adds a word's vector, at its SIF weight, to `out`; true. */
  #accumulate(rank: number, out: Float32Array): true {
    this.#weights ??= this.#sifWeights();
    const weight = this.#weights[rank] ?? 0;
    const d = this.dimensions;
    const components = this.#components;
    // Four at a time (the constructor checks `d` is a multiple of 4): this loop is most of an
    // index build's embedding time. Indices are in range, so the reads are never undefined.
    for (let k = 0, at = rank * d; k < d; k += 4, at += 4) {
      out[k] = (out[k] as number) + weight * (components[at] as number);
      out[k + 1] = (out[k + 1] as number) + weight * (components[at + 1] as number);
      out[k + 2] = (out[k + 2] as number) + weight * (components[at + 2] as number);
      out[k + 3] = (out[k + 3] as number) + weight * (components[at + 3] as number);
    }
    return true;
  }

  /** Each word's SIF weight times its int8 scale: what one component counts in an embedding. */
  #sifWeights(): Float32Array {
    const size = this.#rank.size;
    return Float32Array.from(this.#scales, (scale, rank) => sifWeight(rank, size) * scale);
  }
}

let shared: WordVectors | null | undefined;

/**
 * The table shipped in `data/search/` (from src/search or dist/search alike), read on first use.
 * Without it (a partial install) search still works, by words alone: said once on stderr.
 */
export function defaultWordVectors(): WordVectors | undefined {
  if (shared === undefined) {
    const file = new URL("../../data/search/word-vectors.bin", import.meta.url);
    try {
      shared = new WordVectors(readFileSync(file));
    } catch (error) {
      shared = null;
      process.stderr.write(
        `toolscript: search ranks by words only: cannot load ${file.pathname} (${error instanceof Error ? error.message : String(error)})\n`,
      );
    }
  }
  return shared ?? undefined;
}
