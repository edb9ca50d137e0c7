import { englishGlossWords } from "./chinese-glosses.ts";
import type { RankOf } from "./compounds.ts";
import { DIVERSITY_POOL, diversify } from "./diversify.ts";
import { entityWords, impliedActions, withoutEncodedData, withoutLocations } from "./entities.ts";
import { MAX_DESCRIPTION_CHARS, termWeights } from "./fields.ts";
import { splitIntents } from "./intents.ts";
import { interleave } from "./interleave.ts";
import { defaultLexicon, type Lexicon } from "./lexicon.ts";
import { type IndexTerms, withPartialMatches } from "./partial-matches.ts";
import { analyzeQuery, type WeightedTerm } from "./query.ts";
import {
  blendSteps,
  fuse,
  SEMANTIC_ONLY_MIN_Z,
  SEMANTIC_WEIGHT,
  type Similarities,
  standardise,
} from "./semantic-fusion.ts";
import { topK } from "./top-k.ts";
import {
  DEFAULT_SEARCH_LIMIT,
  type SearchDocument,
  type SearchHit,
  type SearchIndex,
  type SearchOptions,
} from "./types.ts";
import { VectorMatrix } from "./vector-matrix.ts";
import { type WeighedTerm, wordCoverage } from "./word-coverage.ts";
import { defaultWordVectors, type WordVectors } from "./word-vectors.ts";

interface Entry {
  readonly doc: SearchDocument;
  readonly terms: readonly string[];
  readonly weights: readonly number[];
  /** The document's word-vector embedding, when it has words the vectors know. */
  readonly vector: Float32Array | undefined;
}

/** The text a document's embedding is made from: what its lexical fields index of its name and description. */
function embeddedText(doc: SearchDocument): string {
  return `${doc.server ?? ""} ${doc.name} ${doc.title ?? ""} ${doc.description.slice(0, MAX_DESCRIPTION_CHARS)}`;
}

/** Documents holding a term, with the term's BM25F weight in each; slots of removed documents linger until compaction. */
interface Postings {
  readonly slots: number[];
  readonly weights: number[];
  /** Live documents holding the term (its document frequency). */
  live: number;
}

/** Scored candidates of one ranking pass: `values[i]` is the score of document slot `slots[i]`. */
export interface Scored {
  readonly slots: number[];
  readonly values: number[];
  /** Upper bound of a score for this query: every original term matched at full weight. */
  readonly maxScore: number;
  /** Per query word, its terms the index holds with what a match on each counts. */
  readonly groups: readonly (readonly WeighedTerm[])[];
}

/** A document of a ranked list with its normalised score. */
export interface Ranked {
  readonly slot: number;
  readonly score: number;
  /** What it gains from each query word, in units of `score` (see word-coverage.ts). */
  readonly coverage?: Float64Array;
}

export interface LexicalSearchIndexOptions {
  /** Related-word expansion of queries; `false` turns it off. Default: the shipped WordNet extract. */
  readonly lexicon?: Lexicon | false;
  /**
   * Also rank each clause of a multi-step task and interleave the lists. Off by default:
   * on the shipped benchmarks it cost about as much as it gained (see bench/search-quality.ts).
   */
  readonly splitIntents?: boolean;
  /** Weigh query words down by how common they are in English (see specificity.ts); default on. */
  readonly specificity?: boolean;
  /** Spread results across servers (see diversify.ts); default on. */
  readonly spreadServers?: boolean;
  /** Spread results across the request's words (see word-coverage.ts); default on. */
  readonly spreadWords?: boolean;
  /**
   * Word vectors adding meaning-level similarity to the lexical score (see semantic-fusion.ts);
   * `false` turns it off. Default: the shipped table (data/search/word-vectors.bin).
   */
  readonly wordVectors?: WordVectors | false;
}

function groupBySource(terms: readonly WeightedTerm[]): WeightedTerm[][] {
  const groups = new Map<string, WeightedTerm[]>();
  for (const term of terms) {
    const group = groups.get(term.source);
    if (group) group.push(term);
    else groups.set(term.source, [term]);
  }
  return [...groups.values()];
}

/** Removed documents tolerated in the postings before they are rebuilt. */
const COMPACT_MIN_DEAD = 256;

/**
 * BM25F over a tool's fields with identifier splitting, stemming, WordNet query
 * expansion and query words weighted by their English specificity. Postings are append-only arrays of (slot, weight); every weight is final
 * when a document is added, so updates cost only that document's terms.
 */
export class LexicalSearchIndex implements SearchIndex {
  readonly #lexicon: Lexicon | undefined;
  readonly #splitIntents: boolean;
  readonly #specificity: boolean;
  readonly #spreadServers: boolean;
  readonly #spreadWords: boolean;
  readonly #vectors: WordVectors | undefined;
  /** Each slot's embedding, when the vectors know a word of its document. */
  readonly #matrix: VectorMatrix | undefined;
  #entries: (Entry | undefined)[] = [];
  readonly #slotById = new Map<string, number>();
  readonly #idsByServer = new Map<string, Set<string>>();
  #postings = new Map<string, Postings>();
  #dead = 0;
  /** The postings' terms sorted, for prefix look-ups; rebuilt on first use after a new term. */
  #sortedTerms: string[] | undefined;
  readonly #terms: IndexTerms = {
    sorted: () => {
      this.#sortedTerms ??= [...this.#postings.keys()].sort();
      return this.#sortedTerms;
    },
    has: (term) => (this.#postings.get(term)?.live ?? 0) > 0,
  };
  readonly #rankOf: RankOf | undefined;
  /** Scratch score arrays indexed by slot, all zero between calls. */
  #scores = new Float64Array(64);
  #groupScores = new Float64Array(64);

  constructor(options: LexicalSearchIndexOptions = {}) {
    this.#lexicon = options.lexicon === false ? undefined : (options.lexicon ?? defaultLexicon());
    this.#splitIntents = options.splitIntents ?? false;
    this.#specificity = options.specificity ?? true;
    this.#spreadServers = options.spreadServers ?? true;
    this.#spreadWords = options.spreadWords ?? true;
    this.#vectors = options.wordVectors === false ? undefined : (options.wordVectors ?? defaultWordVectors());
    this.#matrix = this.#vectors ? new VectorMatrix(this.#vectors.dimensions) : undefined;
    this.#rankOf = this.#vectors?.rankOf;
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
      const weights = termWeights(doc, this.#rankOf);
      const text = embeddedText(doc);
      const entry: Entry = {
        doc,
        terms: [...weights.keys()],
        weights: [...weights.values()],
        vector: this.#embed(text),
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

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const minScore = options.minScore ?? 0;
    const kinds = options.kinds ? new Set(options.kinds) : undefined;
    const accept = (slot: number) => {
      const doc = this.#entries[slot]?.doc;
      return doc !== undefined && (kinds === undefined || kinds.has(doc.kind));
    };
    const rank = (text: string, depth: number) => this.#rank(text, depth, accept, minScore);
    const intents = this.#splitIntents ? splitIntents(query) : [];
    if (intents.length > 0) {
      const lists = [query, ...intents].map((text) => rank(text, limit));
      return interleave(lists, limit).map((ranked) => this.#hit(ranked));
    }
    if (!this.#spreadServers && !this.#spreadWords)
      return rank(query, limit).map((ranked) => this.#hit(ranked));
    const serverOf = (ranked: Ranked) =>
      this.#spreadServers ? this.#entries[ranked.slot]?.doc.server : undefined;
    const ranked = diversify(
      rank(query, limit + DIVERSITY_POOL),
      { serverOf, coverageOf: (entry) => entry.coverage },
      limit,
    );
    return ranked.map((entry) => this.#hit(entry));
  }

  /** The best `limit` documents for one query text, scores normalised to 0..1. */
  #rank(text: string, limit: number, accept: (slot: number) => boolean, minScore: number): Ranked[] {
    const query = analyzeQuery(text, this.#lexicon, this.#specificity);
    const scored = this.score(withPartialMatches(query, this.#terms, this.#rankOf));
    const similarities = this.#similarities(text);
    if (!similarities) return this.#rankLexical(scored, limit, accept, minScore);
    const { lexical, rankValue, candidates, best } = fuse(scored, similarities, this.#entries.length);
    // Shown scores follow the ranking: the best lexical match's share of a perfect match,
    // scaled by each hit's rank value (a query matched by meaning alone counts as half a match).
    const scale = (best > 0 ? best / scored.maxScore : 0.5) / (1 + SEMANTIC_WEIGHT * SEMANTIC_ONLY_MIN_Z);
    const ranked: Ranked[] = [];
    for (const slot of topK(candidates.filter(accept), limit, (at) => rankValue[at] ?? 0)) {
      // A document a query word matched stays a result however unlike the query it reads.
      const floor = (lexical[slot] ?? 0) > 0 ? 1e-6 : 0;
      const score = Math.min(1, Math.max((rankValue[slot] ?? 0) * scale, floor));
      if (score > 0 && score >= minScore)
        ranked.push({ slot, score, coverage: this.#coverage(slot, scored, best > 0 ? scale / best : 0) });
    }
    return ranked;
  }

  /** Ranking by the lexical score alone (no word vectors, or no known word in the query). */
  #rankLexical(scored: Scored, limit: number, accept: (slot: number) => boolean, minScore: number): Ranked[] {
    if (scored.maxScore <= 0) return [];
    const candidates = scored.slots.keys();
    const best = topK(
      [...candidates].filter((at) => accept(scored.slots[at] ?? -1)),
      limit,
      (at) => scored.values[at] ?? 0,
    );
    const ranked: Ranked[] = [];
    for (const at of best) {
      const slot = scored.slots[at] ?? -1;
      const score = Math.min(1, (scored.values[at] ?? 0) / scored.maxScore);
      if (score > 0 && score >= minScore)
        ranked.push({ slot, score, coverage: this.#coverage(slot, scored, 1 / scored.maxScore) });
    }
    return ranked;
  }

  /** What a slot gains from each query word of `scored`, times `unit`. */
  #coverage(slot: number, scored: Scored, unit: number): Float64Array | undefined {
    const entry = this.#entries[slot];
    return entry && this.#spreadWords
      ? wordCoverage(scored.groups, entry.terms, entry.weights, unit)
      : undefined;
  }

  /** Each slot's similarity to the request (blending in its steps', for a task of several), standardised. */
  #similarities(text: string): Similarities | undefined {
    const query = this.#embedRequest(text);
    if (!query || !this.#matrix) return undefined;
    const steps: Float32Array[] = [];
    for (const step of splitIntents(text)) {
      const vector = this.#embedRequest(step);
      if (vector) steps.push(this.#matrix.cosines(vector));
    }
    return standardise(blendSteps(this.#matrix.cosines(query), steps));
  }

  /** A request's embedding: its words outside paths and URLs, and what those imply. */
  #embedRequest(text: string): Float32Array | undefined {
    const words = `${withoutLocations(withoutEncodedData(text))} ${impliedActions(text)} ${entityWords(text)}`;
    return this.#embed(words);
  }

  /** A text's embedding; the vectors are English, so Chinese counts by its English glosses. */
  #embed(text: string): Float32Array | undefined {
    if (!this.#vectors) return undefined;
    const out = new Float32Array(this.#vectors.dimensions);
    const glosses = englishGlossWords(text);
    return this.#vectors.embed(glosses.length > 0 ? `${text} ${glosses.join(" ")}` : text, out)
      ? out
      : undefined;
  }

  #hit({ slot, score }: Ranked): SearchHit {
    const doc = this.#entries[slot]?.doc;
    if (!doc) throw new Error(`search index slot ${slot} is empty`);
    return { id: doc.id, kind: doc.kind, server: doc.server, name: doc.name, score };
  }

  /**
   * Sums, over the query's words, idf × query weight × document weight of the word or
   * of its best-matching related word, for every live document holding any of them.
   */
  score(terms: readonly WeightedTerm[]): Scored {
    const scores = this.#scores;
    const best = this.#groupScores;
    const slots: number[] = [];
    const groups: WeighedTerm[][] = [];
    let maxScore = 0;
    for (const group of groupBySource(terms)) {
      const weighed: WeighedTerm[] = [];
      // A query word and its related words count once: the best match among them.
      const touched: number[] = [];
      // A related word never counts more than the query word itself would (rare
      // synonyms have a high idf); a query word the index lacks sets no cap.
      const head = group[0];
      const sourceIdf = this.#idf(head?.source ?? "");
      // The best a group can add: its query word matched at that word's own weight.
      let groupMax = sourceIdf * (head !== undefined && head.term === head.source ? head.weight : 1);
      for (const { term, weight } of group) {
        const postings = this.#postings.get(term);
        if (!postings || postings.live === 0) continue;
        const idf = sourceIdf > 0 ? Math.min(sourceIdf, this.#idf(term)) : this.#idf(term);
        const factor = idf * weight;
        weighed.push({ term, factor });
        groupMax = Math.max(groupMax, factor);
        const { slots: postingSlots, weights } = postings;
        for (let i = 0; i < postingSlots.length; i++) {
          const slot = postingSlots[i] ?? 0;
          if (this.#entries[slot] === undefined) continue;
          const value = factor * (weights[i] ?? 0);
          const previous = best[slot] ?? 0;
          if (previous === 0) touched.push(slot);
          if (value > previous) best[slot] = value;
        }
      }
      maxScore += groupMax;
      if (weighed.length > 0) groups.push(weighed);
      for (const slot of touched) {
        if (scores[slot] === 0) slots.push(slot);
        scores[slot] = (scores[slot] ?? 0) + (best[slot] ?? 0);
        best[slot] = 0;
      }
    }
    const values = slots.map((slot) => {
      const value = scores[slot] ?? 0;
      scores[slot] = 0;
      return value;
    });
    return { slots, values, maxScore, groups };
  }

  /** Inverse document frequency (BM25's, never negative); 0 for a term no live document has. */
  #idf(term: string): number {
    const live = this.#postings.get(term)?.live ?? 0;
    return live === 0 ? 0 : Math.log(1 + (this.size - live + 0.5) / (live + 0.5));
  }

  #post(slot: number, entry: Entry): void {
    if (this.#scores.length <= slot) {
      const size = Math.max(64, this.#scores.length * 2, slot + 1);
      this.#scores = new Float64Array(size);
      this.#groupScores = new Float64Array(size);
    }
    if (entry.vector) this.#matrix?.set(slot, entry.vector);
    entry.terms.forEach((term, i) => {
      let postings = this.#postings.get(term);
      if (!postings) {
        postings = { slots: [], weights: [], live: 0 };
        this.#postings.set(term, postings);
        this.#sortedTerms = undefined;
      }
      postings.slots.push(slot);
      postings.weights.push(entry.weights[i] ?? 0);
      postings.live++;
    });
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
    for (const term of entry.terms) {
      const postings = this.#postings.get(term);
      if (postings) postings.live--;
    }
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
    this.#postings = new Map();
    this.#sortedTerms = undefined;
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
