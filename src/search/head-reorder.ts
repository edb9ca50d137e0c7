import { LikelihoodRerank, likelihoodText, RERANK_DEPTH, withLikelihood } from "./likelihood-rerank.ts";
import type { RequestLikelihood } from "./request-likelihood.ts";
import { type NumberedPairWords, pairWords, type RequestPairs } from "./request-pairs.ts";
import { focusOnServers } from "./server-focus.ts";
import { wordTerms } from "./tokenize.ts";
import type { SearchDocument } from "./types.ts";

/** What the reordering keeps of one document, numbered by its index. */
export interface HeadWords {
  /** Its source words for request likelihood (likelihood-rerank.ts). */
  readonly sources: readonly number[] | undefined;
  /** Its words for the learned pair weights (request-pairs.ts). */
  readonly pairWords: NumberedPairWords | undefined;
  /** Its server, for the focus on the head's best servers (server-focus.ts). */
  readonly server: string | undefined;
}

/**
 * The head of a ranking reordered by how likely the request is from each tool's words
 * (likelihood-rerank.ts) plus the learned weights of (request word, tool word) pairs
 * (request-pairs.ts), then focused on the servers with the best tools (server-focus.ts). Each
 * can be off; with all off the ranking stays as it is.
 */
export class HeadReorder {
  readonly #likelihood: LikelihoodRerank | undefined;
  readonly #pairs: RequestPairs | undefined;
  /** Read the likelihood from the request without its file paths (see `likelihoodText`). */
  readonly #pathless: boolean;
  readonly #serverFocus: boolean;

  constructor(
    likelihood: RequestLikelihood | undefined,
    pairs: RequestPairs | undefined,
    options: { readonly pathless: boolean; readonly serverFocus: boolean },
  ) {
    this.#likelihood = likelihood ? new LikelihoodRerank(likelihood) : undefined;
    this.#pairs = pairs;
    this.#pathless = options.pathless;
    this.#serverFocus = options.serverFocus;
  }

  /** A document's words as the reordering reads them, numbered by this index. */
  words(doc: SearchDocument): HeadWords {
    return {
      sources: this.#likelihood?.sources(doc),
      pairWords: this.#pairs?.numbered(pairWords(doc)),
      server: doc.server,
    };
  }

  /** How many of a ranking to take for `limit` results: the head reordered, when anything reorders. */
  depth(limit: number): number {
    return this.#likelihood || this.#pairs || this.#serverFocus ? Math.max(limit, RERANK_DEPTH) : limit;
  }

  /**
   * The best `limit` of a ranking's head (`slots` in order, `values` their scores, `wordsOf` each
   * slot's words) once reordered, each with its score after. The likelihood is of the request
   * without its file paths, with what saving to one implies (`likelihoodText`); the pair weights
   * read the request's own words; the servers' focus reads the scores after both.
   */
  reorder(
    text: string,
    slots: readonly number[],
    values: readonly number[],
    limit: number,
    wordsOf: (slot: number) => HeadWords | undefined,
  ): [number, number][] {
    const words = slots.map((slot) => wordsOf(slot));
    const likelihoods = this.#likelihood?.likelihoods(
      this.#pathless ? likelihoodText(text) : text,
      words.map((entry) => entry?.sources),
    );
    const scores = withLikelihood(values, likelihoods);
    if (this.#pairs) {
      const adjustments = this.#pairs.adjustments(
        [...new Set(wordTerms(text))],
        words.map((entry) => entry?.pairWords),
      );
      scores.forEach((score, at) => {
        scores[at] = score + (adjustments[at] ?? 0);
      });
    }
    if (this.#serverFocus)
      focusOnServers(
        scores,
        words.map((entry) => entry?.server),
      );
    return slots
      .map((slot, at): [number, number] => [slot, scores[at] ?? 0])
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit);
  }
}
