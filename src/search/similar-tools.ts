import { quantiseInt8 } from "./int8.ts";
import { StemRows, weightedStems } from "./stem-rows.ts";
import { readTable } from "./tables.ts";
import { TopSlots } from "./top-k.ts";
import { VectorMatrix } from "./vector-matrix.ts";

/**
 * What users ask the known tools most like a new one for. Requests written for public MCP
 * servers' tools (data/search/similar-tools.tsv, made by
 * scripts/search-data/build-similar-tools.ts) say in users' words what each known tool is for;
 * a new tool whose embedding lies close to some of them is also indexed under the words their
 * requests use most, and its embedding moves a little towards their requests' (document
 * expansion by nearest neighbours): a deploy panel's "reload application" borrows "bounce" and
 * "restart" from the restart tools of other servers. Where request-words.ts goes word by word,
 * this goes tool by tool, so it carries what a tool is for even when none of its own words were
 * seen in training.
 */

/** Known tools a new tool borrows from, at most. */
export const SIMILAR_TOOLS = 5;
/** Cosine (of the shipped embeddings) a known tool must reach to lend anything. */
export const MIN_SIMILARITY = 0.5;
/** Words a tool borrows, at most. */
export const MAX_BORROWED_WORDS = 12;
/**
 * How far a tool's embedding moves towards its similar known tools' requests: each adds this
 * times its cosine times its requests' mean embedding (0.15 and 0.3 measured alike on the folds,
 * 0.8 less; it trades a little on requests in a tool's own words for paraphrases and tasks).
 */
export const REQUEST_MEANING_WEIGHT = 0.15;

/** A known tool: its unit embedding, its requests' stems with their weights, their mean embedding. */
export interface KnownTool {
  readonly vector: Float32Array;
  readonly stems: readonly (readonly [stem: string, weight: number])[];
  /** The unit mean embedding of its requests, when one of them had words the vectors know. */
  readonly requestVector?: Float32Array;
}

/** What a tool borrows from the known tools most like it. */
export interface Borrowed {
  /** Their requests' strongest stems, none the tool holds itself. */
  readonly words: string[];
  /** The tool's embedding moved towards their requests' (unit length), or the one given. */
  readonly vector: Float32Array;
}

export class SimilarTools {
  readonly #matrix: VectorMatrix | undefined;
  readonly #stems: StemRows;
  /**
   * Row per known tool, flat (a typed array per tool would cost more than its values), int8 as the
   * table holds them, with one scale per row (`#requestScales`); all zero where none.
   */
  readonly #requestVectors: Int8Array;
  readonly #requestScales: Float32Array;
  readonly #count: number;

  constructor(known: Iterable<KnownTool>) {
    const list = [...known];
    const dimensions = list[0]?.vector.length ?? 0;
    this.#matrix = dimensions > 0 ? new VectorMatrix(dimensions) : undefined;
    list.forEach((tool, at) => {
      for (const vector of [tool.vector, tool.requestVector ?? tool.vector])
        if (vector.length !== dimensions)
          throw new Error(
            `similar tools: known tool ${at} has ${vector.length} dimensions, expected ${dimensions}`,
          );
      this.#matrix?.set(at, tool.vector);
    });
    this.#count = list.length;
    this.#requestVectors = new Int8Array(list.length * dimensions);
    this.#requestScales = new Float32Array(list.length);
    list.forEach((tool, at) => {
      if (!tool.requestVector) return;
      const row = this.#requestVectors.subarray(at * dimensions, (at + 1) * dimensions);
      this.#requestScales[at] = quantiseInt8(tool.requestVector, row);
    });
    this.#stems = new StemRows(
      list.map((tool, at) => [String(at), tool.stems] as const),
      Float32Array,
    );
  }

  get size(): number {
    return this.#count;
  }

  get dimensions(): number {
    return this.#matrix?.dimensions ?? 0;
  }

  /** What the known tools most like `vector` (a unit embedding) lend a tool whose own stems are `own`. */
  borrow(vector: Float32Array, own: ReadonlySet<string>): Borrowed {
    if (!this.#matrix || vector.length !== this.#matrix.dimensions) return { words: [], vector };
    const cosine = this.#matrix.cosines(vector);
    const nearest = mostSimilar(cosine);
    if (nearest.length === 0) return { words: [], vector };
    const scores = new Map<string, number>();
    const moved = Float32Array.from(vector);
    for (const at of nearest) {
      const similarity = cosine[at] ?? 0;
      this.#stems.forEach(String(at), (stem, weight) => {
        if (!own.has(stem)) scores.set(stem, (scores.get(stem) ?? 0) + similarity * weight);
      });
      const requests = this.#requestVectors;
      const weight = REQUEST_MEANING_WEIGHT * similarity * (this.#requestScales[at] ?? 0);
      for (let k = 0, from = at * moved.length; k < moved.length; k++, from++)
        moved[k] = (moved[k] ?? 0) + weight * (requests[from] ?? 0);
    }
    const words = [...scores]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_BORROWED_WORDS)
      .map(([stem]) => stem);
    return { words, vector: unit(moved) };
  }
}

/** The rows of the best `SIMILAR_TOOLS` cosines of at least `MIN_SIMILARITY` (NaN never is), best first. */
function mostSimilar(cosine: Float32Array): number[] {
  return offered(cosine, new TopSlots(SIMILAR_TOOLS)).best();
}

/**
 * `top` offered each row's cosine of at least `MIN_SIMILARITY`. Nothing follows the loop but the
 * return: V8 (Node 20) compiles a long loop on the stack before the code after it has run, and a
 * call there without type feedback then deoptimised on every later call.
 */
function offered(cosine: Float32Array, top: TopSlots): TopSlots {
  for (let at = 0; at < cosine.length; at++) {
    const similarity = cosine[at] as number;
    if (similarity >= MIN_SIMILARITY) top.offer(at, similarity);
  }
  return top;
}

/** `vector` scaled to unit length, in place (returned as is when all zero). */
function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let k = 0; k < vector.length; k++) vector[k] = (vector[k] ?? 0) / norm;
  return vector;
}

/** Base64 int8 components with their scale (two table columns) → a unit vector; undefined if malformed or zero. */
function decodeVector(scaleText: string | undefined, encoded: string | undefined): Float32Array | undefined {
  const scale = Number(scaleText);
  if (!(scale > 0) || !encoded) return undefined;
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
  const vector = new Float32Array(bytes.length);
  let any = false;
  for (let k = 0; k < bytes.length; k++) {
    vector[k] = bytes.readInt8(k) * scale;
    any ||= vector[k] !== 0;
  }
  return any ? unit(vector) : undefined;
}

/** A vector as two table columns: its scale, then its int8 components in base64. */
function encodeVector(vector: Float32Array): string {
  const bytes = new Int8Array(vector.length);
  const scale = quantiseInt8(vector, bytes);
  return `${scale.toPrecision(6)}\t${Buffer.from(bytes.buffer).toString("base64")}`;
}

/**
 * Line `id<TAB>scale<TAB>embedding<TAB>scale<TAB>requests' embedding<TAB>stem:weight …` (each
 * embedding base64 int8 times its scale; the requests' pair empty when there is none) → a known
 * tool, or undefined if malformed. The id (`server/tool`) says where a line comes from; search
 * needs no more.
 */
export function parseKnownTool(line: string): KnownTool | undefined {
  const [, scale, encoded, requestScale, requestEncoded, stemText] = line.split("\t");
  const vector = decodeVector(scale, encoded);
  if (!vector || stemText === undefined) return undefined;
  const requestVector = requestEncoded ? decodeVector(requestScale, requestEncoded) : undefined;
  if (requestEncoded && requestVector?.length !== vector.length) return undefined;
  return { vector, stems: weightedStems(stemText), requestVector };
}

/** A known tool as a table line (see `parseKnownTool`); its vectors need not be unit length. */
export function formatKnownTool(id: string, tool: KnownTool): string {
  const stems = tool.stems.map(([stem, weight]) => `${stem}:${Number(weight.toPrecision(3))}`).join(" ");
  const requests = tool.requestVector ? encodeVector(tool.requestVector) : "\t";
  return `${id}\t${encodeVector(tool.vector)}\t${requests}\t${stems}`;
}

function* knownTools(lines: Iterable<string>): Generator<KnownTool> {
  for (const line of lines) {
    const tool = parseKnownTool(line);
    if (tool) yield tool;
  }
}

/** Known tools from table lines (malformed ones skipped). */
export function similarToolsFrom(lines: Iterable<string>): SimilarTools {
  return new SimilarTools(knownTools(lines));
}

let shared: SimilarTools | undefined;

/** The shipped table, parsed on first use (empty, said on stderr, if it cannot be read). */
export function defaultSimilarTools(): SimilarTools {
  shared ??= similarToolsFrom(readTable("similar-tools.tsv", "borrows nothing from similar known tools"));
  return shared;
}
