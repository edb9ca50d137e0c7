import { readFileSync } from "node:fs";
import { quantiseInt8 } from "./int8.ts";
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
    const row = vectors.subarray(w * dimensions, (w + 1) * dimensions);
    const components = new Int8Array(out.buffer, out.byteOffset + componentsAt + w * dimensions, dimensions);
    out.writeFloatLE(quantiseInt8(row, components), scalesAt + w * 4);
  }
  return out;
}

interface ParsedTable {
  readonly words: readonly string[];
  readonly dimensions: number;
  readonly scales: Float32Array;
  readonly components: Int8Array;
}

function parseTable(bytes: Uint8Array): ParsedTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (magic !== MAGIC || view.getUint32(4, true) !== VERSION) {
    throw new Error(`word vectors: not a version ${VERSION} "${MAGIC}" file`);
  }
  const count = view.getUint32(8, true);
  const dimensions = view.getUint32(12, true);
  // The similarity kernels (dot-kernel.ts) take four components at a time.
  if (dimensions === 0 || dimensions % 4 !== 0) {
    throw new Error(`word vectors: ${dimensions} dimensions, expected a positive multiple of 4`);
  }
  const wordBytes = view.getUint32(16, true);
  const words = new TextDecoder().decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + wordBytes)).split("\n");
  if (words.length !== count)
    throw new Error(`word vectors: ${words.length} words listed, header says ${count}`);
  const scalesAt = bytes.byteOffset + HEADER_BYTES + align4(wordBytes);
  const expected = HEADER_BYTES + align4(wordBytes) + count * 4 + count * dimensions;
  if (bytes.byteLength !== expected)
    throw new Error(`word vectors: ${bytes.byteLength} bytes, expected ${expected}`);
  // Copies, so the views are aligned whatever the buffer's offset.
  const scales = new Float32Array(bytes.buffer.slice(scalesAt, scalesAt + count * 4));
  const components = new Int8Array(
    bytes.buffer.slice(scalesAt + count * 4, scalesAt + count * 4 + count * dimensions),
  );
  return { words, dimensions, scales, components };
}

export class WordVectors {
  readonly dimensions: number;
  readonly #rank = new Map<string, number>();
  readonly #scales: Float32Array;
  readonly #components: Int8Array;
  /** Per word: SIF weight × int8 scale, computed on first embedding. */
  #weights: Float32Array | undefined;

  /**
   * The table in `bytes`; each word of `overlay` (a table of the same format and dimensions,
   * e.g. data/search/tool-vectors.bin) replaces that word's vector, and words the table lacks
   * are left out, so an overlay costs no memory once read.
   */
  constructor(bytes: Uint8Array, overlay?: Uint8Array) {
    const table = parseTable(bytes);
    this.dimensions = table.dimensions;
    for (const [rank, word] of table.words.entries()) this.#rank.set(word, rank);
    this.#scales = table.scales;
    this.#components = table.components;
    if (overlay) this.#apply(parseTable(overlay));
  }

  #apply(overlay: ParsedTable): void {
    const d = this.dimensions;
    if (overlay.dimensions !== d)
      throw new Error(`word vectors: overlay has ${overlay.dimensions} dimensions, the table ${d}`);
    for (const [at, word] of overlay.words.entries()) {
      const rank = this.#rank.get(word);
      if (rank === undefined) continue;
      this.#scales[rank] = overlay.scales[at] ?? 0;
      this.#components.set(overlay.components.subarray(at * d, (at + 1) * d), rank * d);
    }
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
    this.#eachWord(text, (rank) => {
      found = this.#accumulate(rank, out);
    });
    if (!found) return false;
    const d = this.dimensions;
    let norm = 0;
    for (let k = 0; k < d; k++) norm += (out[k] ?? 0) ** 2;
    norm = Math.sqrt(norm);
    if (norm === 0) return false;
    for (let k = 0; k < d; k++) out[k] = (out[k] ?? 0) / norm;
    return true;
  }

  /**
   * Calls `visit` with the rank of each word of `text` that counts in its embedding: stop
   * words left out, a word outside the vocabulary read as the known words it joins or misspells.
   */
  #eachWord(text: string, visit: (rank: number) => void): void {
    for (const word of words(text)) {
      if (STOPWORDS.has(word)) continue;
      const rank = this.#rank.get(word);
      if (rank !== undefined) visit(rank);
      else
        for (const known of readUnknownWord(word, this.rankOf)) {
          const read = this.#rank.get(known);
          if (read !== undefined) visit(read);
        }
    }
  }

  /**
   * What `embed` sums for `text`, before scaling: each counted word's rank and its summed SIF
   * weight. For fitting the table (scripts/search-data/tool-vectors/fit.ts).
   */
  weightedWords(text: string): Map<number, number> {
    const weights = new Map<number, number>();
    const size = this.#rank.size;
    this.#eachWord(text, (rank) => weights.set(rank, (weights.get(rank) ?? 0) + sifWeight(rank, size)));
    return weights;
  }

  /** Every word's vector as floats, row per rank: the table as fitting reads it. */
  rows(): Float32Array {
    const d = this.dimensions;
    const out = new Float32Array(this.#components.length);
    for (let rank = 0; rank < this.#scales.length; rank++) {
      const scale = this.#scales[rank] ?? 0;
      for (let k = 0, at = rank * d; k < d; k++, at++) out[at] = scale * (this.#components[at] ?? 0);
    }
    return out;
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

const tableUrl = (name: string) => new URL(`../../data/search/${name}`, import.meta.url);
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

let shared: WordVectors | null | undefined;
let general: WordVectors | null | undefined;

/** The general table's bytes; undefined (said on stderr) if they cannot be read. */
function generalBytes(): Buffer | undefined {
  const file = tableUrl("word-vectors.bin");
  try {
    return readFileSync(file);
  } catch (error) {
    process.stderr.write(
      `toolscript: search ranks by words only: cannot load ${file.pathname} (${reason(error)})\n`,
    );
    return undefined;
  }
}

/** The shipped general-English table alone (word-vectors.bin), without what was learned from tools. */
export function generalWordVectors(): WordVectors | undefined {
  if (general === undefined) {
    const bytes = generalBytes();
    try {
      general = bytes ? new WordVectors(bytes) : null;
    } catch (error) {
      general = null;
      process.stderr.write(`toolscript: search ranks by words only: word-vectors.bin: ${reason(error)}\n`);
    }
  }
  return general ?? undefined;
}

/**
 * The table search uses, read on first use (from src/search or dist/search alike): the general
 * English vectors (word-vectors.bin) with the words of tool requests and descriptions refitted
 * on public MCP servers' tools (tool-vectors.bin, see scripts/search-data/build-tool-vectors.ts).
 * Without a file (a partial install) search still works, by words alone or with general
 * vectors: said once on stderr.
 */
export function defaultWordVectors(): WordVectors | undefined {
  if (shared === undefined) {
    const overlayFile = tableUrl("tool-vectors.bin");
    try {
      const overlay = readFileSync(overlayFile);
      const table = generalBytes();
      shared = table ? new WordVectors(table, overlay) : null;
    } catch (error) {
      process.stderr.write(
        `toolscript: search uses general word vectors only: cannot load ${overlayFile.pathname} (${reason(error)})\n`,
      );
      shared = generalWordVectors() ?? null;
    }
  }
  return shared ?? undefined;
}
