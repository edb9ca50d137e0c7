import type { RankOf } from "./compounds.ts";
import { DIVERSITY_POOL, diversify } from "./diversify.ts";
import { type DomainTerms, defaultDomainTerms } from "./domain-terms.ts";
import { documentEmbeddingText, requestEmbeddingText } from "./embedded-text.ts";
import { termWeights } from "./fields.ts";
import { HeadReorder, type HeadWords } from "./head-reorder.ts";
import { splitIntents } from "./intents.ts";
import type { LexicalSearchIndexOptions } from "./lexical-index-options.ts";
import { defaultLexicon, type Lexicon } from "./lexicon.ts";
import { type GroupWords, groupWords, matchedWords } from "./matched-words.ts";
import { withPartialMatches } from "./partial-matches.ts";
import { PostingLists, type Scored } from "./postings.ts";
import { analyzeQuery, type QueryStages, type WeightedTerm } from "./query.ts";
import { defaultRequestLikelihood } from "./request-likelihood.ts";
import { defaultRequestPairs } from "./request-pairs.ts";
import { defaultRequestWords, type RequestWords, toolWords } from "./request-words.ts";
import {
  blendSteps,
  fusedTop,
  fusion,
  rankValue,
  SEMANTIC_ONLY_MIN_Z,
  SEMANTIC_WEIGHT,
  type Similarities,
  standardise,
} from "./semantic-fusion.ts";
import { defaultSimilarTools, type SimilarTools } from "./similar-tools.ts";
import { topSlots } from "./top-k.ts";
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_QUERY_CHARS,
  type SearchDocument,
  type SearchHit,
  type SearchIndex,
  type SearchOptions,
} from "./types.ts";
import { VectorMatrix } from "./vector-matrix.ts";
import { wordCoverage } from "./word-coverage.ts";
import { defaultWordVectors, type WordVectors } from "./word-vectors.ts";

interface Entry {
  readonly doc: SearchDocument;
  readonly terms: readonly string[];
  readonly weights: readonly number[];
  /** The document's word-vector embedding, when it has words the vectors know. */
  readonly vector: Float32Array | undefined;
  /** Its words as the head's reordering reads them (head-reorder.ts). */
  readonly headWords: HeadWords;
}

/** A document of a ranked list with its normalised score. */
export interface Ranked {
  readonly slot: number;
  readonly score: number;
  /** What it gains from each query word, in units of `score` (see word-coverage.ts). */
  readonly coverage?: Float64Array;
  /** The request words it matches (see matched-words.ts). */
  readonly matched: readonly string[];
}

/** Removed documents tolerated in the postings before they are rebuilt. */
const COMPACT_MIN_DEAD = 256;

/**
 * BM25F over a tool's fields (postings.ts) with identifier splitting, stemming, each tool also
 * indexed under the request words learned for its words (request-words.ts), what requests for
 * the known tools most like it say (similar-tools.ts) and what its abbreviations, jargon and
 * products stand for (domain-terms.ts, as the request's), query words
 * expanded by WordNet and word neighbours and weighted by their English specificity, fused with
 * word-vector similarity (semantic-fusion.ts), the head of the ranking reordered by how likely the
 * request is from each tool's words (likelihood-rerank.ts), optionally the list spread across the
 * request's words (diversify.ts). Every term weight is final when a document is added, so updates
 * cost only that document's terms.
 */
export class LexicalSearchIndex implements SearchIndex {
  readonly #lexicon: Lexicon | undefined;
  readonly #specificity: boolean;
  readonly #spreadWords: boolean;
  readonly #stages: QueryStages;
  readonly #partialMatches: boolean;
  readonly #compounds: boolean;
  readonly #stepSimilarity: boolean;
  readonly #chineseGlosses: boolean;
  readonly #vectors: WordVectors | undefined;
  /** Each slot's embedding, when the vectors know a word of its document. */
  readonly #matrix: VectorMatrix | undefined;
  #entries: (Entry | undefined)[] = [];
  readonly #slotById = new Map<string, number>();
  readonly #idsByServer = new Map<string, Set<string>>();
  readonly #postings = new PostingLists();
  #dead = 0;
  readonly #rankOf: RankOf | undefined;
  readonly #requestWords: RequestWords | undefined;
  readonly #documentDomainTerms: DomainTerms | undefined;
  readonly #similarTools: SimilarTools | undefined;
  readonly #head: HeadReorder;

  constructor(options: LexicalSearchIndexOptions = {}) {
    this.#lexicon = options.lexicon === false ? undefined : (options.lexicon ?? defaultLexicon());
    this.#specificity = options.specificity ?? true;
    this.#spreadWords = options.spreadWords ?? false;
    const { domainSynonyms, entities, chineseGlosses, actions, domainTerms } = options;
    this.#stages = { domainSynonyms, entities, chineseGlosses, actions, domainTerms };
    this.#partialMatches = options.partialMatches ?? true;
    this.#compounds = options.compounds ?? true;
    this.#stepSimilarity = options.stepSimilarity ?? true;
    this.#chineseGlosses = chineseGlosses ?? true;
    this.#vectors = options.wordVectors === false ? undefined : (options.wordVectors ?? defaultWordVectors());
    this.#matrix = this.#vectors ? new VectorMatrix(this.#vectors.dimensions) : undefined;
    this.#rankOf = this.#vectors?.rankOf;
    this.#requestWords =
      options.requestWords === false ? undefined : (options.requestWords ?? defaultRequestWords());
    const { domainTerms: terms = true } = options;
    this.#documentDomainTerms = terms === true ? defaultDomainTerms() : terms || undefined;
    // The shipped known tools were embedded with the shipped vectors: with others they would not compare.
    const similar =
      options.similarTools ?? (options.wordVectors === undefined ? defaultSimilarTools() : false);
    this.#similarTools = similar && this.#vectors?.dimensions === similar.dimensions ? similar : undefined;
    this.#head = new HeadReorder(
      (options.requestLikelihood ?? defaultRequestLikelihood()) || undefined,
      (options.requestPairs ?? defaultRequestPairs()) || undefined,
      { pathless: entities !== false, serverFocus: options.serverFocus ?? true },
    );
  }

  get size(): number {
    return this.#slotById.size;
  }

  get(id: string): SearchDocument | undefined {
    const slot = this.#slotById.get(id);
    return slot === undefined ? undefined : this.#entries[slot]?.doc;
  }

  add(documents: readonly SearchDocument[]): void {
    for (const doc of documents) {
      this.#removeOne(doc.id);
      const ownVector = this.#embed(documentEmbeddingText(doc, { chineseGlosses: this.#chineseGlosses }));
      const ownWords = toolWords(doc);
      const borrowed = ownVector && this.#similarTools?.borrow(ownVector, ownWords);
      const vector = borrowed?.vector ?? ownVector;
      const weights = termWeights(doc, {
        rankOf: this.#compounds ? this.#rankOf : undefined,
        requestWords: this.#requestWords,
        ownWords,
        chineseGlosses: this.#chineseGlosses,
        domainTerms: this.#documentDomainTerms,
        similarToolWords: borrowed?.words,
      });
      const entry: Entry = {
        doc,
        terms: [...weights.keys()],
        weights: [...weights.values()],
        vector,
        headWords: this.#head.words(doc),
      };
      const slot = this.#entries.length;
      this.#entries.push(entry);
      this.#slotById.set(doc.id, slot);
      if (doc.server !== undefined) {
        const ids = this.#idsByServer.get(doc.server) ?? new Set<string>();
        ids.add(doc.id);
        this.#idsByServer.set(doc.server, ids);
      }
      this.#post(slot, entry);
    }
    this.#compactIfNeeded();
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) this.#removeOne(id);
    this.#compactIfNeeded();
  }

  replaceServer(server: string, documents: readonly SearchDocument[]): void {
    const stale = new Set(this.#idsByServer.get(server));
    for (const doc of documents) stale.delete(doc.id);
    this.remove([...stale]);
    this.add(documents.map((doc) => (doc.server === server ? doc : { ...doc, server })));
  }

  removeServer(server: string): void {
    this.remove([...(this.#idsByServer.get(server) ?? [])]);
  }

  /** The best documents for `query`; past `MAX_QUERY_CHARS`, a query is read up to there. */
  search(request: string, options: SearchOptions = {}): SearchHit[] {
    const query = request.slice(0, MAX_QUERY_CHARS);
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const minScore = options.minScore ?? 0;
    const kinds = options.kinds ? new Set(options.kinds) : undefined;
    // Every candidate is a live document of any kind: no filter to run over thousands of them.
    const accept =
      kinds === undefined && this.#dead === 0
        ? undefined
        : (slot: number) => {
            const doc = this.#entries[slot]?.doc;
            return doc !== undefined && (kinds === undefined || kinds.has(doc.kind));
          };
    const rank = (text: string, depth: number) => this.#rank(text, depth, accept, minScore);
    if (!this.#spreadWords) return rank(query, limit).map((ranked) => this.#hit(ranked));
    const ranked = diversify(rank(query, limit + DIVERSITY_POOL), (entry) => entry.coverage, limit);
    return ranked.map((entry) => this.#hit(entry));
  }

  /** The best `limit` documents for one query text, scores normalised to 0..1. */
  #rank(
    text: string,
    limit: number,
    accept: ((slot: number) => boolean) | undefined,
    minScore: number,
  ): Ranked[] {
    const query = analyzeQuery(text, this.#lexicon, this.#specificity, this.#stages);
    const terms = this.#partialMatches
      ? withPartialMatches(query, this.#postings, this.#rankOf, this.#compounds)
      : query;
    const scored = this.score(terms);
    const words = groupWords(text, terms, scored.groups);
    const similarities = this.#similarities(text);
    if (!similarities) return this.#rankLexical(text, scored, words, limit, accept, minScore);
    const { lexical, best } = scored;
    const fused = fusion(best, similarities);
    const top = fusedTop(lexical, similarities.cosine, fused, this.#depth(limit), accept);
    const rankValueOf = (slot: number) =>
      rankValue(fused, lexical[slot] ?? 0, similarities.cosine[slot] ?? Number.NaN);
    // Shown scores follow the ranking: the best lexical match's share of a perfect match,
    // scaled by each hit's rank value (a query matched by meaning alone counts as half a match).
    // A hit far more like the request than the rest sets the scale, so scores never tie at 1.
    const first = top[0];
    const reference = Math.max(
      1 + SEMANTIC_WEIGHT * SEMANTIC_ONLY_MIN_Z,
      first === undefined ? 0 : rankValueOf(first),
    );
    const scale = (best > 0 ? best / scored.maxScore : 0.5) / reference;
    const ranked: Ranked[] = [];
    const values = top.map((slot) => rankValueOf(slot) * scale);
    for (const [slot, value] of this.#reordered(text, top, values, limit)) {
      // A document a query word matched stays a result however unlike the query it reads.
      const floor = (lexical[slot] ?? 0) > 0 ? 1e-6 : 0;
      const score = Math.min(1, Math.max(value, floor));
      if (score > 0 && score >= minScore)
        ranked.push({
          slot,
          score,
          coverage: this.#coverage(slot, scored, best > 0 ? scale / best : 0),
          matched: this.#matched(slot, scored, words),
        });
    }
    return ranked;
  }

  /** Ranking by the lexical score alone (no word vectors, or no known word in the query). */
  #rankLexical(
    text: string,
    scored: Scored,
    words: GroupWords,
    limit: number,
    accept: ((slot: number) => boolean) | undefined,
    minScore: number,
  ): Ranked[] {
    if (scored.maxScore <= 0) return [];
    const ranked: Ranked[] = [];
    // Slots no query word matched score 0 and are dropped below.
    const top = topSlots(scored.lexical, this.#depth(limit), accept).filter(
      (slot) => (scored.lexical[slot] ?? 0) > 0,
    );
    const values = top.map((slot) => (scored.lexical[slot] ?? 0) / scored.maxScore);
    for (const [slot, value] of this.#reordered(text, top, values, limit)) {
      const score = Math.min(1, Math.max(value, 1e-6));
      if (score >= minScore)
        ranked.push({
          slot,
          score,
          coverage: this.#coverage(slot, scored, 1 / scored.maxScore),
          matched: this.#matched(slot, scored, words),
        });
    }
    return ranked;
  }

  /** How many of a ranking to take for `limit` results: the head is reordered (head-reorder.ts). */
  #depth(limit: number): number {
    return this.#head.depth(limit);
  }

  /** The best `limit` of a ranking's head once reordered (head-reorder.ts), each with its score after. */
  #reordered(
    text: string,
    slots: readonly number[],
    values: readonly number[],
    limit: number,
  ): [number, number][] {
    return this.#head.reorder(text, slots, values, limit, (slot) => this.#entries[slot]?.headWords);
  }

  /** What a slot gains from each query word of `scored`, times `unit`. */
  #coverage(slot: number, scored: Scored, unit: number): Float64Array | undefined {
    const entry = this.#entries[slot];
    return entry && this.#spreadWords
      ? wordCoverage(scored.groups, entry.terms, entry.weights, unit)
      : undefined;
  }

  /** The request words that add to a slot's lexical score. */
  #matched(slot: number, scored: Scored, words: GroupWords): readonly string[] {
    const entry = this.#entries[slot];
    return entry ? matchedWords(words, scored.groups, entry.terms, entry.weights) : [];
  }

  /** Each slot's similarity to the request (blending in its steps', for a task of several), standardised. */
  #similarities(text: string): Similarities | undefined {
    const query = this.#embedRequest(text);
    if (!query || !this.#matrix) return undefined;
    const steps: Float32Array[] = [];
    for (const step of this.#stepSimilarity ? splitIntents(text) : []) {
      const vector = this.#embedRequest(step);
      if (vector) steps.push(this.#matrix.cosines(vector));
    }
    return standardise(blendSteps(this.#matrix.cosines(query), steps));
  }

  /** A request's embedding (see embedded-text.ts). */
  #embedRequest(text: string): Float32Array | undefined {
    return this.#embed(
      requestEmbeddingText(text, { entities: this.#stages.entities, chineseGlosses: this.#chineseGlosses }),
    );
  }

  #embed(text: string): Float32Array | undefined {
    if (!this.#vectors) return undefined;
    const out = new Float32Array(this.#vectors.dimensions);
    return this.#vectors.embed(text, out) ? out : undefined;
  }

  #hit({ slot, score, matched }: Ranked): SearchHit {
    const doc = this.#entries[slot]?.doc;
    if (!doc) throw new Error(`search index slot ${slot} is empty`);
    return { id: doc.id, kind: doc.kind, server: doc.server, name: doc.name, score, matched };
  }

  /** The lexical scores of every live document for analysed query terms (see postings.ts). */
  score(terms: readonly WeightedTerm[]): Scored {
    return this.#postings.score(terms);
  }

  #post(slot: number, entry: Entry): void {
    if (entry.vector) this.#matrix?.set(slot, entry.vector);
    this.#postings.add(slot, entry.terms, entry.weights);
  }

  #removeOne(id: string): void {
    const slot = this.#slotById.get(id);
    if (slot === undefined) return;
    const entry = this.#entries[slot];
    this.#slotById.delete(id);
    this.#entries[slot] = undefined;
    this.#matrix?.delete(slot);
    this.#dead++;
    if (!entry) return;
    this.#postings.remove(slot, entry.terms);
    const server = entry.doc.server;
    if (server !== undefined) {
      const ids = this.#idsByServer.get(server);
      ids?.delete(id);
      if (ids?.size === 0) this.#idsByServer.delete(server);
    }
  }

  /** Renumbers live documents and rebuilds the postings once removed ones dominate. */
  #compactIfNeeded(): void {
    if (this.#dead < Math.max(COMPACT_MIN_DEAD, this.size)) return;
    const live = this.#entries.filter((entry): entry is Entry => entry !== undefined);
    this.#entries = [];
    this.#postings.clear();
    this.#matrix?.clear();
    this.#slotById.clear();
    this.#dead = 0;
    for (const entry of live) {
      const slot = this.#entries.length;
      this.#entries.push(entry);
      this.#slotById.set(entry.doc.id, slot);
      this.#post(slot, entry);
    }
  }
}
