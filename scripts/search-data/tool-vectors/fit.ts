// Fits word vectors so that requests land near the tools that serve them: a contrastive
// (InfoNCE) refit of the general table's rows for the words of the training requests and tool
// descriptions. Used by build-tool-vectors.ts for the shipped table, and by
// `npm run bench -- search-corpus` once per split by server (its test servers left out).
import { documentEmbeddingText, requestEmbeddingText } from "../../../src/search/embedded-text.ts";
import type { SearchDocument } from "../../../src/search/types.ts";
import type { WordVectors } from "../../../src/search/word-vectors.ts";

/** A request and the tool that serves it. */
export interface TrainingPair {
  readonly request: string;
  /** The tool's id, and of the tools that serve it equally (never taken as negatives). */
  readonly tool: string;
  readonly also: readonly string[];
  /** Requests are drawn server by server, so a batch holds look-alike tools of one server. */
  readonly server: string;
}

export interface FitOptions {
  /** Passes over the pairs. */
  readonly epochs: number;
  readonly learningRate: number;
  /** Softmax temperature over cosines. */
  readonly temperature: number;
  /** Servers per batch, and requests drawn from each. */
  readonly batchServers: number;
  readonly perServer: number;
  /**
   * Share of the learned change kept: each refitted row is the general row plus this much of
   * its change (less keeps more of what the general table knew).
   */
  readonly blend: number;
}

/**
 * Chosen on the corpus split by server (bench/search-corpus.ts), with the public sets of
 * bench/search-quality.ts as a floor: keeping all of the learned change (blend 1) gains about
 * as much on the corpus and loses 0.5–1 point on MetaTool and LiveMCPBench. On 33,935 requests
 * a faster rate with a little less of the change matches the old setting (4, 0.7) on the corpus
 * and keeps LiveMCPBench at 0.809, which the old setting drops to 0.798 (both measured with
 * word spread on, before it was turned off by default).
 */
export const FIT_DEFAULTS: FitOptions = {
  epochs: 12,
  learningRate: 6,
  temperature: 0.1,
  batchServers: 16,
  perServer: 8,
  blend: 0.65,
};

/** The refitted rows: the words whose vectors changed, and their vectors (row per word). */
export interface FittedRows {
  readonly words: string[];
  readonly vectors: Float32Array;
}

type Bag = Map<number, number>;

/** `out` = the unit embedding of `bag` over `rows`; returns the norm before scaling. */
function embed(bag: Bag, rows: Float32Array, d: number, out: Float32Array): number {
  out.fill(0);
  for (const [rank, weight] of bag)
    for (let k = 0, at = rank * d; k < d; k++, at++) out[k] = (out[k] ?? 0) + weight * (rows[at] ?? 0);
  let norm = 0;
  for (let k = 0; k < d; k++) norm += (out[k] ?? 0) ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < d; k++) out[k] = (out[k] ?? 0) / norm;
  return norm;
}

/**
 * Rows of `vectors` refitted on `pairs` (tools in `documents` by id). Each step draws
 * `batchServers` servers and `perServer` requests of each; every request is pulled towards its
 * tool and pushed from the batch's other tools; gradients flow through the unit-length mean
 * to each word's vector.
 */
export function fitToolVectors(
  vectors: WordVectors,
  pairs: readonly TrainingPair[],
  documents: ReadonlyMap<string, SearchDocument>,
  random: () => number,
  options: FitOptions = FIT_DEFAULTS,
  onProgress?: (done: number, total: number) => void,
): FittedRows {
  const d = vectors.dimensions;
  const rows = vectors.rows();
  const requestBags = pairs.map((pair) => vectors.weightedWords(requestEmbeddingText(pair.request)));
  const toolBags = new Map<string, Bag>();
  for (const pair of pairs) {
    const doc = documents.get(pair.tool);
    if (!doc) throw new Error(`fit tool vectors: no tool ${pair.tool} for the request "${pair.request}"`);
    if (!toolBags.has(pair.tool)) toolBags.set(pair.tool, vectors.weightedWords(documentEmbeddingText(doc)));
  }
  const byServer = new Map<string, number[]>();
  pairs.forEach((pair, at) => {
    const list = byServer.get(pair.server) ?? [];
    list.push(at);
    byServer.set(pair.server, list);
  });
  const servers = [...byServer.values()];
  const steps = Math.ceil(pairs.length / (options.batchServers * options.perServer)) * options.epochs;
  const touched = new Set<number>();
  for (let step = 0; step < steps; step++) {
    const batch: number[] = [];
    // Distinct servers (a partial shuffle), so every batch has other servers' tools to push from.
    const drawn = Math.min(options.batchServers, servers.length);
    for (let s = 0; s < drawn; s++) {
      const pick = s + Math.floor(random() * (servers.length - s));
      [servers[s], servers[pick]] = [servers[pick] as number[], servers[s] as number[]];
      const list = servers[s] ?? [];
      for (let r = 0; r < options.perServer && list.length > 0; r++)
        batch.push(list[Math.floor(random() * list.length)] ?? 0);
    }
    fitBatch(batch, pairs, requestBags, toolBags, rows, d, options, touched);
    onProgress?.(step + 1, steps);
  }
  const ranks = [...touched].sort((a, b) => a - b);
  const words = [...vectors.words];
  const out = new Float32Array(ranks.length * d);
  const general = vectors.rows();
  ranks.forEach((rank, at) => {
    for (let k = 0, from = rank * d, to = at * d; k < d; k++, from++, to++)
      out[to] = (general[from] ?? 0) + options.blend * ((rows[from] ?? 0) - (general[from] ?? 0));
  });
  return { words: ranks.map((rank) => words[rank] ?? ""), vectors: out };
}

/** One gradient step of InfoNCE over a batch, in place on `rows`. */
function fitBatch(
  batch: readonly number[],
  pairs: readonly TrainingPair[],
  requestBags: readonly Bag[],
  toolBags: ReadonlyMap<string, Bag>,
  rows: Float32Array,
  d: number,
  options: FitOptions,
  touched: Set<number>,
): void {
  const tools = [...new Set(batch.map((at) => pairs[at]?.tool ?? ""))];
  const toolAt = new Map(tools.map((tool, at) => [tool, at]));
  const queryBags = batch.map((at) => requestBags[at] ?? new Map<number, number>());
  const docBags = tools.map((tool) => toolBags.get(tool) ?? new Map<number, number>());
  const queries = queryBags.map(() => new Float32Array(d));
  const queryNorms = queryBags.map((bag, at) => embed(bag, rows, d, queries[at] as Float32Array));
  const docs = docBags.map(() => new Float32Array(d));
  const docNorms = docBags.map((bag, at) => embed(bag, rows, d, docs[at] as Float32Array));
  const queryGrads = queries.map(() => new Float32Array(d));
  const docGrads = docs.map(() => new Float32Array(d));
  const logits = new Float64Array(tools.length);
  batch.forEach((pairAt, q) => {
    const pair = pairs[pairAt];
    const query = queries[q] as Float32Array;
    const positive = toolAt.get(pair?.tool ?? "") ?? -1;
    const equivalent = new Set(pair?.also);
    let max = Number.NEGATIVE_INFINITY;
    docs.forEach((doc, t) => {
      let dot = 0;
      for (let k = 0; k < d; k++) dot += (query[k] ?? 0) * (doc[k] ?? 0);
      logits[t] = dot / options.temperature;
      max = Math.max(max, logits[t] ?? 0);
    });
    let total = 0;
    for (let t = 0; t < tools.length; t++) {
      // A tool that serves the request as well is no negative.
      const skip = t !== positive && equivalent.has(tools[t] ?? "");
      logits[t] = skip ? 0 : Math.exp((logits[t] ?? 0) - max);
      total += logits[t] ?? 0;
    }
    for (let t = 0; t < tools.length; t++) {
      const grad = ((logits[t] ?? 0) / total - (t === positive ? 1 : 0)) / options.temperature / batch.length;
      if (grad === 0) continue;
      const doc = docs[t] as Float32Array;
      const queryGrad = queryGrads[q] as Float32Array;
      const docGrad = docGrads[t] as Float32Array;
      for (let k = 0; k < d; k++) {
        queryGrad[k] = (queryGrad[k] ?? 0) + grad * (doc[k] ?? 0);
        docGrad[k] = (docGrad[k] ?? 0) + grad * (query[k] ?? 0);
      }
    }
  });
  const step = (bag: Bag, unit: Float32Array, norm: number, grad: Float32Array) => {
    // Through the normalisation: d unit / d sum = (I − unit unitᵀ) / norm.
    let along = 0;
    for (let k = 0; k < d; k++) along += (unit[k] ?? 0) * (grad[k] ?? 0);
    for (const [rank, weight] of bag) {
      touched.add(rank);
      const scale = (options.learningRate * weight) / norm;
      for (let k = 0, at = rank * d; k < d; k++, at++)
        rows[at] = (rows[at] ?? 0) - scale * ((grad[k] ?? 0) - along * (unit[k] ?? 0));
    }
  };
  for (const [q, bag] of queryBags.entries())
    step(bag, queries[q] as Float32Array, queryNorms[q] ?? 1, queryGrads[q] as Float32Array);
  for (const [t, bag] of docBags.entries())
    step(bag, docs[t] as Float32Array, docNorms[t] ?? 1, docGrads[t] as Float32Array);
}
