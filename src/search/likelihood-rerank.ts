import { impliedActions, withoutFilePaths } from "./entities.ts";
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
/** Narrowed rows kept per index before they start over. */
const MAX_NARROWED_ROWS = 20_000;

/** A request stem's row as one index reads it: its words' numbers there and what each gives. */
interface NarrowedRow {
  readonly ids: Int32Array;
  readonly given: Float64Array;
}

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
  /** Request stems' rows narrowed to the index's words (`#narrowed`), while those stay as many. */
  readonly #narrowedRows = new Map<string, NarrowedRow>();
  #narrowedFor = 0;

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
    const totals = new Float64Array(sourcesOf.length);
    const touched: number[] = [];
    let counted = 0;
    for (const stem of new Set(requestStems(request))) {
      // A word no request of the corpus used counts only where a tool holds it: as a rare word.
      const own = this.#ids.get(stem);
      const word = this.#table.word(stem) ?? (own === undefined ? undefined : UNSEEN);
      if (!word) continue;
      counted++;
      const row = this.#narrowed(stem, word);
      for (let at = 0; at < row.ids.length; at++) {
        const id = row.ids[at] ?? 0;
        given[id] = row.given[at] ?? 0;
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

  /**
   * A request stem's row with only the tool words some document of the index has, as the index
   * numbers them, and what each gives. A row lists the corpus's tool words (up to ~1,500 for a
   * common stem) while an index holds a fraction of them; a new document's words start over.
   */
  #narrowed(stem: string, word: RequestWord): NarrowedRow {
    if (this.#narrowedFor !== this.#ids.size || this.#narrowedRows.size >= MAX_NARROWED_ROWS) {
      this.#narrowedRows.clear();
      this.#narrowedFor = this.#ids.size;
    }
    const known = this.#narrowedRows.get(stem);
    if (known) return known;
    const ids: number[] = [];
    const given: number[] = [];
    const { sources, probabilities } = word;
    for (let at = 0; at < sources.length; at++) {
      const id = this.#idOfSource[sources[at] ?? -1] ?? -1;
      if (id < 0) continue;
      ids.push(id);
      given.push((1 - SELF) * (probabilities[at] ?? 0));
    }
    const row = { ids: Int32Array.from(ids), given: Float64Array.from(given) };
    this.#narrowedRows.set(stem, row);
    return row;
  }
}

/**
 * A request as the reordering reads it: without its file paths, with what saving to one implies.
 * A path's folders and file name say where a result goes ("save it to /root/markdown/x.md" asks
 * to write a file), yet a tool holding those words (a Markdown converter) would explain them as
 * well as the need itself. URLs stay: a page's address often names what the task is about.
 */
export function likelihoodText(request: string): string {
  const actions = impliedActions(request);
  const pathless = withoutFilePaths(request);
  return actions === "" ? pathless : `${pathless} ${actions}`;
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
