import { StemRows } from "./stem-rows.ts";
import { readTable } from "./tables.ts";
import { VectorMatrix } from "./vector-matrix.ts";

/**
 * The words requests use for the known tools most like a new one. Requests written for public
 * MCP servers' tools (data/search/similar-tools.tsv, made by
 * scripts/search-data/build-similar-tools.ts) say in users' words what each known tool is for;
 * a new tool whose embedding lies close to some of them is also indexed under the words
 * their requests use most (document expansion by nearest neighbours): a deploy panel's
 * "reload application" borrows "bounce" and "restart" from the restart tools of other
 * servers. Where request-words.ts goes word by word, this goes tool by tool, so it carries
 * what a tool is for even when none of its own words were seen in training.
 */

/** Known tools a new tool borrows from, at most. */
export const SIMILAR_TOOLS = 5;
/** Cosine (of the shipped embeddings) a known tool must reach to lend its requests' words. */
export const MIN_SIMILARITY = 0.5;
/** Words a tool borrows, at most. */
export const MAX_BORROWED_WORDS = 12;

/** A known tool: its unit embedding, and its requests' stems with their weights. */
export interface KnownTool {
  readonly vector: Float32Array;
  readonly stems: readonly (readonly [stem: string, weight: number])[];
}

export class SimilarTools {
  readonly #matrix: VectorMatrix | undefined;
  readonly #stems: StemRows;
  readonly #count: number;

  constructor(known: Iterable<KnownTool>) {
    const list = [...known];
    this.#count = list.length;
    const dimensions = list[0]?.vector.length ?? 0;
    this.#matrix = dimensions > 0 ? new VectorMatrix(dimensions) : undefined;
    list.forEach((tool, at) => {
      if (tool.vector.length !== dimensions)
        throw new Error(
          `similar tools: known tool ${at} has ${tool.vector.length} dimensions, expected ${dimensions}`,
        );
      this.#matrix?.set(at, tool.vector);
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

  /**
   * The stems that requests for the known tools most like `vector` (a unit embedding) use,
   * strongest first; none of `own` (the tool's own stems).
   */
  borrow(vector: Float32Array, own: ReadonlySet<string>): string[] {
    if (!this.#matrix || vector.length !== this.#matrix.dimensions) return [];
    const cosine = this.#matrix.cosines(vector);
    const nearest: number[] = [];
    for (let at = 0; at < cosine.length; at++) {
      if (!((cosine[at] ?? 0) >= MIN_SIMILARITY)) continue;
      nearest.push(at);
      // Keep the best SIMILAR_TOOLS: a catalog's few thousand rows need no heap.
      if (nearest.length > SIMILAR_TOOLS) {
        nearest.sort((a, b) => (cosine[b] ?? 0) - (cosine[a] ?? 0));
        nearest.pop();
      }
    }
    const scores = new Map<string, number>();
    for (const at of nearest) {
      const similarity = cosine[at] ?? 0;
      this.#stems.forEach(String(at), (stem, weight) => {
        if (!own.has(stem)) scores.set(stem, (scores.get(stem) ?? 0) + similarity * weight);
      });
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_BORROWED_WORDS)
      .map(([stem]) => stem);
  }
}

/**
 * Line `id<TAB>scale<TAB>base64 int8 components<TAB>stem:weight …` → a known tool (undefined if
 * malformed). The id (`server/tool`) says where a line comes from; search needs no more.
 */
export function parseKnownTool(line: string): KnownTool | undefined {
  const [, scaleText, encoded, stemText] = line.split("\t");
  const scale = Number(scaleText);
  if (!(scale > 0) || !encoded || stemText === undefined) return undefined;
  const bytes = Buffer.from(encoded, "base64");
  const vector = new Float32Array(bytes.length);
  let norm = 0;
  for (let k = 0; k < bytes.length; k++) {
    const value = (((bytes[k] ?? 0) << 24) >> 24) * scale;
    vector[k] = value;
    norm += value * value;
  }
  norm = Math.sqrt(norm);
  if (!(norm > 0) || bytes.length % 4 !== 0) return undefined;
  for (let k = 0; k < vector.length; k++) vector[k] = (vector[k] ?? 0) / norm;
  const stems: [string, number][] = [];
  for (const item of stemText.split(" ")) {
    const colon = item.lastIndexOf(":");
    const weight = Number(item.slice(colon + 1));
    if (colon > 0 && weight > 0) stems.push([item.slice(0, colon), weight]);
  }
  return { vector, stems };
}

/** A known tool as a table line (see `parseKnownTool`); `vector` need not be unit length. */
export function formatKnownTool(id: string, tool: KnownTool): string {
  let max = 0;
  for (const value of tool.vector) max = Math.max(max, Math.abs(value));
  const scale = max > 0 ? max / 127 : 1;
  const bytes = Buffer.alloc(tool.vector.length);
  for (const [k, value] of tool.vector.entries()) bytes.writeInt8(Math.round(value / scale), k);
  const stems = tool.stems.map(([stem, weight]) => `${stem}:${Number(weight.toPrecision(3))}`).join(" ");
  return `${id}\t${scale.toPrecision(6)}\t${bytes.toString("base64")}\t${stems}`;
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
  shared ??= similarToolsFrom(readTable("similar-tools.tsv", "borrows no words from similar tools"));
  return shared;
}
