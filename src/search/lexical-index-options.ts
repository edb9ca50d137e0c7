import type { Lexicon } from "./lexicon.ts";
import type { QueryStages } from "./query.ts";
import type { RequestLikelihood } from "./request-likelihood.ts";
import type { RequestPairs } from "./request-pairs.ts";
import type { RequestWords } from "./request-words.ts";
import type { SimilarTools } from "./similar-tools.ts";
import type { WordVectors } from "./word-vectors.ts";

/** How a LexicalSearchIndex searches: each stage of its pipeline, switchable (bench/search-ablations.ts). */
export interface LexicalSearchIndexOptions extends QueryStages {
  /** Related-word expansion of queries; `false` turns it off. Default: the shipped WordNet extract. */
  readonly lexicon?: Lexicon | false;
  /** Weigh query words down by how common they are in English (see specificity.ts); default on. */
  readonly specificity?: boolean;
  /**
   * Spread results across the request's words (see diversify.ts); default off: it finds 0.2
   * points more of the corpus's requests at the unseen check's size (without pair weights), but
   * one LiveMCPBench task fewer, which would leave that set at its floor (0.809).
   */
  readonly spreadWords?: boolean;
  /**
   * Word vectors adding meaning-level similarity to the lexical score (see semantic-fusion.ts);
   * `false` turns it off. Default: the shipped tables (data/search/word-vectors.bin with the
   * rows refitted on tool requests, tool-vectors.bin, over it).
   */
  readonly wordVectors?: WordVectors | false;
  /** A multi-step task's similarity blends in its steps' (see semantic-fusion.ts `blendSteps`); default on. */
  readonly stepSimilarity?: boolean;
  /** Guesses for request words the index lacks (see partial-matches.ts); default on. */
  readonly partialMatches?: boolean;
  /** Identifiers and request words written as one word read as the words they join (compounds.ts); default on. */
  readonly compounds?: boolean;
  /**
   * The words requests use for what a tool's words name, indexed with each tool (see
   * request-words.ts); `false` turns it off. Default: the shipped table (data/search/request-words.tsv).
   */
  readonly requestWords?: RequestWords | false;
  /**
   * Each tool also indexed under the words requests use for the known tools most like it, its
   * embedding moved towards their requests' (see similar-tools.ts); needs word vectors, and known
   * tools embedded with the same ones; `false` turns it off. Default: the shipped table
   * (data/search/similar-tools.tsv) with the shipped vectors, none with other vectors.
   */
  readonly similarTools?: SimilarTools | false;
  /**
   * The head of each ranking reordered by how likely the request is from each tool's words (see
   * request-likelihood.ts); `false` turns it off. Default: the shipped table
   * (data/search/request-likelihood.tsv).
   */
  readonly requestLikelihood?: RequestLikelihood | false;
  /**
   * Weights on (request word, tool word) pairs added to the head of each ranking, learned from
   * what rankings got wrong (request-pairs.ts); `false` turns them off. Default: the shipped table
   * (data/search/request-pairs.tsv).
   */
  readonly requestPairs?: RequestPairs | false;
  /** The head of each ranking focused on the servers with its best tools (see server-focus.ts); default on. */
  readonly serverFocus?: boolean;
}
