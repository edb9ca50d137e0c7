import {
  type RequestLikelihood,
  type RequestWord,
  requestStems,
  toolSourceWords,
} from "./request-likelihood.ts";
import type { SearchDocument } from "./types.ts";

/**
 * The best this many of a ranking are reordered (all of a longer list asked for). Deeper finds
 * more on the corpus split by server and, with the pair weights, no less on the public sets: 30
 * finds 0.590 of the corpus's paraphrases fold-wide and 0.687 at the check's size, 20 finds 0.588
 * and 0.685, 40 finds 0.591 and 0.688; LiveMCPBench finds 76 of 94 tasks at 20 and 30, MetaTool
 * 0.759 (bench/search-corpus.ts, search-quality.ts; tables learned from the corpus's first 44,064
 * requests). Without the pairs, 30 lost LiveMCPBench 2 tasks and 20 one, against 10.
 */
export const RERANK_DEPTH = 30;
/**
 * Score (0..1 scale of a hit) the likeliest candidate gains; one whose mean log-likelihood per
 * request word trails by d gains e^-d of it. Bounded, so a confident lexical or semantic lead
 * stands: a penalty linear in d found less on the corpus and lost more on the public sets.
 */
export const LIKELIHOOD_WEIGHT = 0.1;
/** Share of a word's likelihood given by the tool's holding the word itself (translation to itself). */
const SELF = 0.1;
/** Share given by how common the word is in requests at large, so no word rules a request out. */
const BACKGROUND = 0.1;
/** A request word the corpus never used, held by some tool of the index. */
const UNSEEN: RequestWord = {
  background: 1e-6,
  anyTool: 0,
  sources: new Int32Array(0),
  probabilities: new Float32Array(0),
};

/**
 * One index's side of request likelihood (request-likelihood.ts): its tools' source words as
 * numbers, and the reordering of a ranking's head by how likely the request is from each tool.
 */
export class LikelihoodRerank {
  readonly #table: RequestLikelihood;
  readonly #ids = new Map<string, number>();
  /** The index's number for each tool word the table numbers, -1 for one no document has. */
  readonly #idOfSource: Int32Array;
  /** Per source word number, what it gives the request word being scored; zero between words. */
  #given = new Float64Array(64);

  constructor(table: RequestLikelihood) {
    this.#table = table;
    this.#idOfSource = new Int32Array(table.sourceCount).fill(-1);
  }

  /** A document's source words as this index numbers them. */
  sources(doc: Pick<SearchDocument, "name" | "title" | "description">): number[] {
    // Small integers in a plain array: a typed array per document is an ArrayBuffer each, which
    // tens of thousands of make every garbage collection slower.
    return toolSourceWords(doc).map((word) => {
      const known = this.#ids.get(word);
      if (known !== undefined) return known;
      const id = this.#ids.size;
      this.#ids.set(word, id);
      const number = this.#table.sourceNumber(word);
      if (number !== undefined) this.#idOfSource[number] = id;
      return id;
    });
  }

  /**
   * Mean log-likelihood of the request's words per candidate (`sourcesOf` each one's source
   * words); undefined when neither the table nor the index knows a request word.
   */
  likelihoods(
    request: string,
    sourcesOf: readonly (readonly number[] | undefined)[],
  ): Float64Array | undefined {
    if (this.#given.length < this.#ids.size) this.#given = new Float64Array(this.#ids.size * 2);
    const given = this.#given;
    const idOfSource = this.#idOfSource;
    const totals = new Float64Array(sourcesOf.length);
    const touched: number[] = [];
    let counted = 0;
    for (const stem of new Set(requestStems(request))) {
      // A word no request of the corpus used counts only where a tool holds it: as a rare word.
      const own = this.#ids.get(stem);
      const word = this.#table.word(stem) ?? (own === undefined ? undefined : UNSEEN);
      if (!word) continue;
      counted++;
      const { sources, probabilities } = word;
      for (let at = 0; at < sources.length; at++) {
        const id = idOfSource[sources[at] ?? -1] ?? -1;
        if (id < 0) continue;
        given[id] = (1 - SELF) * (probabilities[at] ?? 0);
        touched.push(id);
      }
      if (own !== undefined) {
        given[own] = (given[own] ?? 0) + SELF;
        touched.push(own);
      }
      const anyTool = (1 - SELF) * word.anyTool;
      const background = BACKGROUND * word.background;
      for (let at = 0; at < sourcesOf.length; at++) {
        const sources = sourcesOf[at];
        let sum = anyTool;
        if (sources) for (const id of sources) sum += given[id] ?? 0;
        const p = sum / ((sources?.length ?? 0) + 1);
        totals[at] = (totals[at] ?? 0) + Math.log((1 - BACKGROUND) * p + background);
      }
      for (const id of touched) given[id] = 0;
      touched.length = 0;
    }
    if (counted === 0) return undefined;
    for (let at = 0; at < totals.length; at++) totals[at] = (totals[at] ?? 0) / counted;
    return totals;
  }
}

/**
 * `scores` (a ranking's, 0..1 scale) plus `LIKELIHOOD_WEIGHT` × e^-(how far each candidate's
 * likelihood trails the likeliest's); the input unchanged without likelihoods.
 */
export function withLikelihood(scores: readonly number[], likelihoods: Float64Array | undefined): number[] {
  if (!likelihoods) return [...scores];
  let best = Number.NEGATIVE_INFINITY;
  for (const value of likelihoods) best = Math.max(best, value);
  return scores.map((score, at) => score + LIKELIHOOD_WEIGHT * Math.exp((likelihoods[at] ?? best) - best));
}
