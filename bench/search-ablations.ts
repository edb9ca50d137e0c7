// The engine with one stage switched off (or, for a stage off by default, on) per row, for both search benchmarks
// (search-quality.ts on the public sets, search-corpus.ts on the training corpus).
import type { LexicalSearchIndexOptions } from "../src/search/lexical-index-options.ts";
import { wordNetLexicon } from "../src/search/lexicon.ts";
import { generalWordVectors } from "../src/search/word-vectors.ts";

export const ABLATIONS: readonly (readonly [name: string, options: () => LexicalSearchIndexOptions])[] = [
  // Known tools embedded by the fitted vectors do not compare with general ones: both go.
  [
    "general vectors (no tool vectors nor similar tools)",
    () => ({ wordVectors: generalWordVectors() ?? false, similarTools: false }),
  ],
  ["no request words", () => ({ requestWords: false })],
  ["no request likelihood", () => ({ requestLikelihood: false })],
  ["no request pairs", () => ({ requestPairs: false })],
  ["no server focus", () => ({ serverFocus: false })],
  ["no similar tools (their request words and meaning)", () => ({ similarTools: false })],
  ["no domain terms", () => ({ domainTerms: false })],
  ["no word vectors", () => ({ wordVectors: false })],
  ["no word neighbours", () => ({ lexicon: wordNetLexicon() })],
  ["no WordNet nor neighbours", () => ({ lexicon: false })],
  ["no domain synonyms", () => ({ domainSynonyms: false })],
  ["no action match", () => ({ actions: false })],
  ["no specificity", () => ({ specificity: false })],
  ["no entities nor implied actions", () => ({ entities: false })],
  ["no Chinese glosses", () => ({ chineseGlosses: false })],
  ["no partial matches", () => ({ partialMatches: false })],
  ["no compounds", () => ({ compounds: false })],
  ["no step similarity", () => ({ stepSimilarity: false })],
  ["with word spread (off by default)", () => ({ spreadWords: true })],
];
