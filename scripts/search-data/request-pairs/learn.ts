// Learns weights on (request stem, tool stem) pairs (src/search/request-pairs.ts) from rankings:
// for each request, the head of the ranking search gave it on servers never learned from, with
// each candidate's score and whether the request asked for it. The weights and one scale on the
// scores are fitted together by softmax over each head (a listwise learning-to-rank loss) with
// AdaGrad, so a pair weight is what the scores alone got wrong. Used by build-request-pairs.ts
// for the shipped table, and by `npm run bench -- search-corpus` once per split by server.
import { describedKey, type PairWords, pairShares } from "../../../src/search/request-pairs.ts";
import { wordTerms } from "../../../src/search/tokenize.ts";

export interface PairOptions {
  /** A pair is learned when it joins a request with the tool it asked for this many times. */
  readonly minPositives: number;
  /** Full passes of AdaGrad over all the rankings. */
  readonly rounds: number;
  readonly learningRate: number;
  /** L2 penalty on the pair weights. */
  readonly l2: number;
  /** A weight is written when its size in score units is at least this. */
  readonly minWeight: number;
}

/** Chosen on the corpus split by server (bench/search-corpus.ts). */
export const PAIR_DEFAULTS: PairOptions = {
  minPositives: 2,
  rounds: 200,
  learningRate: 0.5,
  l2: 1e-5,
  minWeight: 0.01,
};

/**
 * How much of each ranking the pairs learn from: its best 20. Heads of 30 (what search reorders,
 * RERANK_DEPTH) found the same on the corpus split by server (0.5906 against 0.5902 of the
 * paraphrases fold-wide) and take half as long again to learn.
 */
export const LEARNED_HEAD = 20;

/** The scale the scores start from: a hit's score gaps are a few hundredths. */
const START_SCALE = 30;
const SCALE_RATE = 5;
const MIN_SCALE = 1;

/** One request and the head of its ranking. */
export interface RankedRequest {
  readonly request: string;
  readonly candidates: readonly { readonly id: string; readonly score: number }[];
  readonly expected: readonly string[];
}

/** The rankings as flat arrays: per candidate its score gap, label and pair features. */
interface Design {
  readonly requestStart: number[];
  readonly gap: Float64Array;
  readonly wanted: Float64Array;
  readonly featureStart: Int32Array;
  readonly feature: Int32Array;
  readonly share: Float64Array;
  readonly keys: readonly string[];
}

/** Numbers for stems and tool keys, so a pair is one number: request × TOOL_KEYS + tool key. */
const TOOL_KEYS = 2 ** 21;

class Numbering {
  readonly ids = new Map<string, number>();
  readonly words: string[] = [];
  of(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(word, id);
      this.words.push(word);
    }
    return id;
  }
}

/** A candidate tool's keys: its `nameCount` name stems, then its `~`-marked description stems. */
interface ToolKeys {
  readonly keys: Int32Array;
  readonly nameCount: number;
  readonly words: PairWords;
}

function design(
  rankings: readonly RankedRequest[],
  wordsOf: (id: string) => PairWords,
  minPositives: number,
): Design {
  const requestWords = new Numbering();
  const toolWords = new Numbering();
  const tools = new Map<string, ToolKeys>();
  const toolKeys = (id: string): ToolKeys => {
    let known = tools.get(id);
    if (!known) {
      const words = wordsOf(id);
      const keys = [
        ...words.name.map((w) => toolWords.of(w)),
        ...words.described.map((w) => toolWords.of(describedKey(w))),
      ];
      if (toolWords.words.length > TOOL_KEYS) throw new Error("learn request pairs: too many tool words");
      known = { keys: Int32Array.from(keys), nameCount: words.name.length, words };
      tools.set(id, known);
    }
    return known;
  };
  const usable = rankings.filter((ranked) =>
    ranked.candidates.some((candidate) => ranked.expected.includes(candidate.id)),
  );
  const stems = usable.map((ranked) =>
    Int32Array.from(new Set(wordTerms(ranked.request)), (w) => requestWords.of(w)),
  );
  const positives = new Map<number, number>();
  usable.forEach((ranked, at) => {
    for (const candidate of ranked.candidates) {
      if (!ranked.expected.includes(candidate.id)) continue;
      const tool = toolKeys(candidate.id);
      for (const stem of stems[at] ?? [])
        for (const key of tool.keys) {
          const pair = stem * TOOL_KEYS + key;
          positives.set(pair, (positives.get(pair) ?? 0) + 1);
        }
    }
  });
  const ids = new Map<number, number>();
  const keys: string[] = [];
  for (const [pair, count] of positives) {
    if (count < minPositives) continue;
    ids.set(pair, keys.length);
    keys.push(`${requestWords.words[Math.floor(pair / TOOL_KEYS)]}\t${toolWords.words[pair % TOOL_KEYS]}`);
  }
  const requestStart = [0];
  const gaps: number[] = [];
  const wanted: number[] = [];
  const featureStart = [0];
  const feature: number[] = [];
  const share: number[] = [];
  usable.forEach((ranked, at) => {
    const top = Math.max(...ranked.candidates.map((candidate) => candidate.score));
    const asked = stems[at] ?? new Int32Array(0);
    for (const candidate of ranked.candidates) {
      gaps.push(candidate.score - top);
      wanted.push(ranked.expected.includes(candidate.id) ? 1 : 0);
      const tool = toolKeys(candidate.id);
      const shares = pairShares(asked.length, tool.words);
      for (const stem of asked)
        tool.keys.forEach((key, k) => {
          const id = ids.get(stem * TOOL_KEYS + key);
          if (id === undefined) return;
          feature.push(id);
          share.push(k < tool.nameCount ? shares.name : shares.described);
        });
      featureStart.push(feature.length);
    }
    requestStart.push(gaps.length);
  });
  return {
    requestStart,
    gap: Float64Array.from(gaps),
    wanted: Float64Array.from(wanted),
    featureStart: Int32Array.from(featureStart),
    feature: Int32Array.from(feature),
    share: Float64Array.from(share),
    keys,
  };
}

/**
 * The table's lines, `requestStem<TAB>toolStem:weight …` (`~stem` for a description word),
 * sorted; each weight in score units, what it adds to a hit's score at a share of 1.
 */
export function learnRequestPairs(
  rankings: readonly RankedRequest[],
  wordsOf: (id: string) => PairWords,
  options: PairOptions = PAIR_DEFAULTS,
): string[] {
  const d = design(rankings, wordsOf, options.minPositives);
  const requests = d.requestStart.length - 1;
  const weights = new Float64Array(d.keys.length);
  const squares = new Float64Array(d.keys.length).fill(1e-8);
  let scale = START_SCALE;
  let scaleSquares = 1e-8;
  const z = new Float64Array(d.gap.length);
  const gradient = new Float64Array(d.keys.length);
  for (let round = 0; round < options.rounds; round++) {
    gradient.fill(0);
    let scaleGradient = 0;
    for (let r = 0; r < requests; r++) {
      const from = d.requestStart[r] ?? 0;
      const to = d.requestStart[r + 1] ?? 0;
      let best = Number.NEGATIVE_INFINITY;
      let wantedCount = 0;
      for (let c = from; c < to; c++) {
        let value = scale * (d.gap[c] ?? 0);
        for (let f = d.featureStart[c] ?? 0; f < (d.featureStart[c + 1] ?? 0); f++)
          value += (weights[d.feature[f] ?? 0] ?? 0) * (d.share[f] ?? 0);
        z[c] = value;
        best = Math.max(best, value);
        wantedCount += d.wanted[c] ?? 0;
      }
      let sum = 0;
      for (let c = from; c < to; c++) {
        z[c] = Math.exp((z[c] ?? 0) - best);
        sum += z[c] ?? 0;
      }
      for (let c = from; c < to; c++) {
        const delta = ((z[c] ?? 0) / sum - (d.wanted[c] ?? 0) / wantedCount) / requests;
        scaleGradient += delta * (d.gap[c] ?? 0);
        for (let f = d.featureStart[c] ?? 0; f < (d.featureStart[c + 1] ?? 0); f++) {
          const id = d.feature[f] ?? 0;
          gradient[id] = (gradient[id] ?? 0) + delta * (d.share[f] ?? 0);
        }
      }
    }
    for (let id = 0; id < weights.length; id++) {
      const g = (gradient[id] ?? 0) + options.l2 * (weights[id] ?? 0);
      squares[id] = (squares[id] ?? 0) + g * g;
      weights[id] = (weights[id] ?? 0) - (options.learningRate * g) / Math.sqrt(squares[id] ?? 1);
    }
    scaleSquares += scaleGradient * scaleGradient;
    // The scores never count against themselves, however wrong a few rankings are.
    scale = Math.max(MIN_SCALE, scale - (SCALE_RATE * scaleGradient) / Math.sqrt(scaleSquares));
  }
  const rows = new Map<string, string[]>();
  d.keys.forEach((key, id) => {
    const weight = (weights[id] ?? 0) / scale;
    if (Math.abs(weight) < options.minWeight) return;
    const [request = "", tool = ""] = key.split("\t");
    const row = rows.get(request) ?? [];
    rows.set(request, row);
    row.push(`${tool}:${Number(weight.toPrecision(3))}`);
  });
  return [...rows]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([request, items]) => `${request}\t${items.join(" ")}`);
}
