// Learns how likely each request word is given each word of the tool it asks for
// (src/search/request-likelihood.ts): IBM translation model 1 (Brown et al. 1993) fitted by
// expectation maximisation on (request, tool) pairs, as Berger & Lafferty (1999) use it for
// retrieval. Used by build-request-likelihood.ts for the shipped table, and by
// `npm run bench -- search-corpus` once per split by server.
import { requestStems, toolSourceWords } from "../../../src/search/request-likelihood.ts";
import type { SearchDocument } from "../../../src/search/types.ts";
import type { TrainingPair } from "../tool-vectors/fit.ts";

export interface LikelihoodOptions {
  /** Rounds of expectation maximisation. */
  readonly rounds: number;
  /** A translation is kept when at least this likely. */
  readonly minProbability: number;
  /** Tool words kept per request word, likeliest first. */
  readonly perRequestWord: number;
}

/** Chosen on the corpus split by server (bench/search-corpus.ts). */
export const LIKELIHOOD_DEFAULTS: LikelihoodOptions = {
  rounds: 6,
  minProbability: 0.0001,
  perRequestWord: 100_000,
};

/** The source word that stands for none of the tool's words: what a request says of any tool. */
const NULL = 0;

/**
 * The table's lines, `requestStem<TAB>background<TAB>null<TAB>toolStem:p …`, sorted:
 * `background` is the request word's share of all request words, `null` and each `p` are
 * t(request word | tool word) for the empty word and the tool words it comes from.
 */
export function learnRequestLikelihood(
  pairs: readonly TrainingPair[],
  documents: ReadonlyMap<string, SearchDocument>,
  options: LikelihoodOptions = LIKELIHOOD_DEFAULTS,
): string[] {
  const requestIds = new Map<string, number>();
  const toolIds = new Map<string, number>([["", NULL]]);
  const intern = (ids: Map<string, number>, word: string) => {
    const known = ids.get(word);
    if (known !== undefined) return known;
    ids.set(word, ids.size);
    return ids.size - 1;
  };
  const sourcesOf = new Map<string, Int32Array>();
  const sentences: { request: Int32Array; sources: Int32Array }[] = [];
  for (const pair of pairs) {
    const doc = documents.get(pair.tool);
    if (!doc)
      throw new Error(`learn request likelihood: no tool ${pair.tool} for the request "${pair.request}"`);
    let sources = sourcesOf.get(pair.tool);
    if (!sources) {
      sources = Int32Array.from([NULL, ...toolSourceWords(doc).map((word) => intern(toolIds, word))]);
      sourcesOf.set(pair.tool, sources);
    }
    const request = Int32Array.from(requestStems(pair.request).map((word) => intern(requestIds, word)));
    if (request.length > 0) sentences.push({ request, sources });
  }
  const tools = toolIds.size;
  const key = (request: number, source: number) => request * tools + source;
  // Uniform start: every pair seen together is equally likely.
  let translation = new Map<number, number>();
  for (const { request, sources } of sentences)
    for (const word of request) for (const source of sources) translation.set(key(word, source), 1);
  for (let round = 0; round < options.rounds; round++) {
    const counts = new Map<number, number>();
    const totals = new Float64Array(tools);
    for (const { request, sources } of sentences) {
      for (const word of request) {
        let sum = 0;
        for (const source of sources) sum += translation.get(key(word, source)) ?? 0;
        if (sum <= 0) continue;
        for (const source of sources) {
          const k = key(word, source);
          const share = (translation.get(k) ?? 0) / sum;
          counts.set(k, (counts.get(k) ?? 0) + share);
          totals[source] = (totals[source] ?? 0) + share;
        }
      }
    }
    const next = new Map<number, number>();
    for (const [k, count] of counts) next.set(k, count / (totals[k % tools] ?? 1));
    translation = next;
  }
  const requestWords = [...requestIds.keys()];
  const toolWords = [...toolIds.keys()];
  const frequency = new Float64Array(requestWords.length);
  let total = 0;
  for (const { request } of sentences)
    for (const word of request) {
      frequency[word] = (frequency[word] ?? 0) + 1;
      total++;
    }
  const rows = new Map<number, [string, number][]>();
  const nulls = new Float64Array(requestWords.length);
  for (const [k, probability] of translation) {
    const word = Math.floor(k / tools);
    const source = k % tools;
    if (source === NULL) nulls[word] = probability;
    else if (probability >= options.minProbability) {
      const row = rows.get(word) ?? [];
      row.push([toolWords[source] ?? "", probability]);
      rows.set(word, row);
    }
  }
  const lines: string[] = [];
  for (const [word, text] of requestWords.entries()) {
    const row = (rows.get(word) ?? [])
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, options.perRequestWord);
    const items = row.map(([tool, p]) => `${tool}:${p.toPrecision(3)}`).join(" ");
    lines.push(
      `${text}\t${((frequency[word] ?? 0) / total).toPrecision(3)}\t${(nulls[word] ?? 0).toPrecision(3)}\t${items}`,
    );
  }
  return lines.sort();
}
