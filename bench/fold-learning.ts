// What search learns from the corpus without one fold of its servers (bench/search-corpus.ts
// searches each fold with it; scripts/search-data/build-request-pairs.ts ranks each fold's
// requests with it, so the pair weights learn from rankings of servers never learned from).
import { readFileSync } from "node:fs";
import {
  LIKELIHOOD_DEFAULTS,
  learnRequestLikelihood,
} from "../scripts/search-data/request-likelihood/learn.ts";
import {
  LEARNED_HEAD,
  learnRequestPairs,
  PAIR_DEFAULTS,
  type RankedRequest,
} from "../scripts/search-data/request-pairs/learn.ts";
import { LEARN_DEFAULTS, learnRequestWords } from "../scripts/search-data/request-words/learn.ts";
import { learnSimilarTools } from "../scripts/search-data/similar-tools/learn.ts";
import { FIT_DEFAULTS, fitToolVectors } from "../scripts/search-data/tool-vectors/fit.ts";
import { LexicalSearchIndex } from "../src/search/lexical-index.ts";
import type { LexicalSearchIndexOptions } from "../src/search/lexical-index-options.ts";
import { RequestLikelihood } from "../src/search/request-likelihood.ts";
import { pairWords } from "../src/search/request-pairs.ts";
import { RequestWords } from "../src/search/request-words.ts";
import { type SimilarTools, similarToolsFrom } from "../src/search/similar-tools.ts";
import { tableFile } from "../src/search/tables.ts";
import { encodeWordVectors, generalWordVectors, WordVectors } from "../src/search/word-vectors.ts";
import { type Corpus, corpusDocuments, seeded, serverFolds, trainingPairs } from "./corpus-set.ts";
import { evalDocument } from "./search-quality.ts";

/** What was learned without the fold searched, named as the index's options name each table. */
export interface Learned {
  readonly wordVectors: WordVectors;
  readonly requestWords: RequestWords;
  readonly requestLikelihood: RequestLikelihood;
  readonly similarTools: SimilarTools;
}

/**
 * Index options that search with what was learned without the fold, and no pair weights (they
 * are learned from such rankings). The tables are named as the index's options name them.
 */
export function learnedOptions(learned: Learned): LexicalSearchIndexOptions {
  return {
    wordVectors: learned.wordVectors,
    requestWords: learned.requestWords,
    requestLikelihood: learned.requestLikelihood,
    similarTools: learned.similarTools,
    requestPairs: false,
  };
}

/** Learns every table from the requests of the servers outside `fold` (`at`: the fold's number, seeding the fit). */
export function learnWithout(corpus: Corpus, fold: readonly string[], at: number): Learned {
  const general = generalWordVectors();
  if (!general) throw new Error("fold learning: data/search/word-vectors.bin is needed");
  const inFold = new Set(fold);
  const documents = corpusDocuments(corpus.tools);
  const pairs = trainingPairs(corpus.queries.filter((query) => !inFold.has(query.server)));
  const rows = fitToolVectors(general, pairs, documents, seeded(at + 1), FIT_DEFAULTS);
  const vectors = new WordVectors(
    readFileSync(tableFile("word-vectors.bin")),
    encodeWordVectors(rows.words, rows.vectors, general.dimensions),
  );
  return {
    wordVectors: vectors,
    requestWords: new RequestWords(learnRequestWords(pairs, documents, LEARN_DEFAULTS)),
    requestLikelihood: new RequestLikelihood(learnRequestLikelihood(pairs, documents, LIKELIHOOD_DEFAULTS)),
    similarTools: similarToolsFrom(learnSimilarTools(pairs, documents, vectors)),
  };
}

/**
 * The head of the ranking search gives each of the fold's requests, its tools searched as one
 * catalog. Without the server focus: the pair weights are added to the head's scores before it
 * (head-reorder.ts), so they learn from those scores. (Learned from focused rankings, they found
 * the same: 0.7540 of all requests at the check's size, against 0.7542.)
 */
export function foldRankings(corpus: Corpus, fold: readonly string[], learned: Learned): RankedRequest[] {
  const inFold = new Set(fold);
  const index = new LexicalSearchIndex({ ...learnedOptions(learned), serverFocus: false });
  index.add(corpus.tools.filter((tool) => inFold.has(tool.server)).map(evalDocument));
  return corpus.queries
    .filter((query) => inFold.has(query.server))
    .map((query) => ({
      request: query.query,
      expected: query.expected,
      candidates: index
        .search(query.query, { limit: LEARNED_HEAD })
        .map((hit) => ({ id: hit.id, score: hit.score })),
    }));
}

/** One fold: what was learned without it, and the rankings that gave its requests. */
export interface FoldRun {
  readonly fold: readonly string[];
  readonly learned: Learned;
  readonly rankings: readonly RankedRequest[];
}

/** Every fold of `count` learned without and ranked (`report` hears of each fold as it starts). */
export function learnFolds(corpus: Corpus, count: number, report: (message: string) => void): FoldRun[] {
  return serverFolds(corpus.servers, count).map((fold, at) => {
    report(`fold ${at + 1} of ${count}: learning from the other folds' requests`);
    const learned = learnWithout(corpus, fold, at);
    return { fold, learned, rankings: foldRankings(corpus, fold, learned) };
  });
}

/** The pair weights' table lines (request-pairs/learn.ts) learned from `rankings` of the corpus's tools. */
export function learnPairs(corpus: Corpus, rankings: readonly RankedRequest[]): string[] {
  const documents = corpusDocuments(corpus.tools);
  return learnRequestPairs(
    rankings,
    (id) => {
      const doc = documents.get(id);
      if (!doc) throw new Error(`request pairs: no tool ${id} in the corpus`);
      return pairWords(doc);
    },
    PAIR_DEFAULTS,
  );
}
