import type { IndexTerms } from "./partial-matches.ts";
import type { WeightedTerm } from "./query.ts";
import type { WeighedTerm } from "./word-coverage.ts";

/** The lexical scores of one ranking pass. */
export interface Scored {
  /**
   * Per document slot, its score (0: no query word matched); as long as the slots ever posted.
   * The lists' own buffer: the next `score` call overwrites it.
   */
  readonly lexical: Float64Array;
  /** The best score. */
  readonly best: number;
  /** Upper bound of a score for this query: every original term matched at full weight. */
  readonly maxScore: number;
  /** Per query word, its terms the index holds with what a match on each counts. */
  readonly groups: readonly (readonly WeighedTerm[])[];
}

/**
 * Documents holding a term, with the term's BM25F weight in each; removed slots linger until
 * `clear`. Typed arrays grown by doubling: scoring walks tens of thousands of entries a query.
 */
interface Postings {
  slots: Int32Array;
  weights: Float64Array;
  /** Entries in use. */
  length: number;
  /** Live documents holding the term (its document frequency). */
  live: number;
}

const FIRST_CAPACITY = 4;

function append(postings: Postings, slot: number, weight: number): void {
  if (postings.length === postings.slots.length) {
    const slots = new Int32Array(postings.length * 2);
    slots.set(postings.slots);
    postings.slots = slots;
    const weights = new Float64Array(postings.length * 2);
    weights.set(postings.weights);
    postings.weights = weights;
  }
  postings.slots[postings.length] = slot;
  postings.weights[postings.length] = weight;
  postings.length++;
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

/** Adds `factor` × each document's weight in one list (a slot is in a list once) to `scores`. */
function addTo(scores: Float64Array, { slots, weights, length }: Postings, factor: number): void {
  for (let i = 0; i < length; i++) {
    const slot = slots[i] as number;
    scores[slot] = (scores[slot] as number) + factor * (weights[i] as number);
  }
}

/**
 * Adds, per document, the best of `factors[i]` × its weight in `lists[i]` to `scores`, with
 * `best` (all zero, and left so) as scratch. One pass: a better match adds only what it
 * gains over the best so far, and clearing `best` whole afterwards costs less than walking
 * the lists again (a branch per entry on whether a slot is new cost twice the walk).
 */
function addBest(scores: Float64Array, best: Float64Array, lists: Postings[], factors: number[]): void {
  lists.forEach(({ slots, weights, length }, at) => {
    const factor = factors[at] as number;
    for (let i = 0; i < length; i++) {
      const slot = slots[i] as number;
      const value = factor * (weights[i] as number);
      const previous = best[slot] as number;
      const better = value > previous ? value : previous;
      scores[slot] = (scores[slot] as number) + (better - previous);
      best[slot] = better;
    }
  });
  best.fill(0);
}

function zeroRemoved(scores: Float64Array, removed: Uint8Array): void {
  for (let slot = 0; slot < scores.length; slot++) if (removed[slot] === 1) scores[slot] = 0;
}

function highest(scores: Float64Array): number {
  let top = 0;
  for (let slot = 0; slot < scores.length; slot++)
    if ((scores[slot] as number) > top) top = scores[slot] as number;
  return top;
}

/**
 * The inverted index: per term, the document slots holding it and its final BM25F weight in
 * each. Lists are append-only, so adding a document costs only its own terms; a removed
 * document's slot is skipped until the owner renumbers the documents and rebuilds the lists.
 */
export class PostingLists implements IndexTerms {
  #lists = new Map<string, Postings>();
  /** Live documents. */
  #documents = 0;
  /** 1 for a removed slot. */
  #removed = new Uint8Array(64);
  /** Removed slots still in the lists (none: scoring skips the check). */
  #removedSlots = 0;
  /** The terms sorted, for prefix look-ups; rebuilt on first use after a new term. */
  #sorted: string[] | undefined;
  /** One past the highest slot posted since the last `clear`. */
  #slots = 0;
  /** Scratch scores indexed by slot, all zero between calls. */
  #groupScores = new Float64Array(64);
  /** The scores `score` returns, reused: a new 80 kB array per search at 10,000 tools cost more than zeroing one. */
  #lexical = new Float64Array(0);

  add(slot: number, terms: readonly string[], weights: readonly number[]): void {
    if (this.#groupScores.length <= slot) {
      const size = Math.max(64, this.#groupScores.length * 2, slot + 1);
      this.#groupScores = new Float64Array(size);
      const removed = new Uint8Array(size);
      removed.set(this.#removed);
      this.#removed = removed;
    }
    this.#slots = Math.max(this.#slots, slot + 1);
    if (this.#removed[slot] === 1) this.#removedSlots--;
    this.#removed[slot] = 0;
    this.#documents++;
    terms.forEach((term, i) => {
      let postings = this.#lists.get(term);
      if (!postings) {
        const slots = new Int32Array(FIRST_CAPACITY);
        postings = { slots, weights: new Float64Array(FIRST_CAPACITY), length: 0, live: 0 };
        this.#lists.set(term, postings);
        this.#sorted = undefined;
      }
      append(postings, slot, weights[i] ?? 0);
      postings.live++;
    });
  }

  /** Marks the document at `slot`, which holds `terms`, removed. */
  remove(slot: number, terms: readonly string[]): void {
    if (this.#removed[slot] !== 1) this.#removedSlots++;
    this.#removed[slot] = 1;
    this.#documents--;
    for (const term of terms) {
      const postings = this.#lists.get(term);
      if (postings) postings.live--;
    }
  }

  clear(): void {
    this.#lists = new Map();
    this.#documents = 0;
    this.#slots = 0;
    this.#removed.fill(0);
    this.#removedSlots = 0;
    this.#sorted = undefined;
  }

  /** Every term held so far, sorted (terms of removed documents included). */
  sorted(): readonly string[] {
    this.#sorted ??= [...this.#lists.keys()].sort();
    return this.#sorted;
  }

  /** Whether a live document holds the term. */
  has(term: string): boolean {
    return (this.#lists.get(term)?.live ?? 0) > 0;
  }

  /** Inverse document frequency (BM25's, never negative); 0 for a term no live document has. */
  idf(term: string): number {
    const live = this.#lists.get(term)?.live ?? 0;
    return live === 0 ? 0 : Math.log(1 + (this.#documents - live + 0.5) / (live + 0.5));
  }

  /**
   * Sums, over the query's words, idf × query weight × document weight of the word or
   * of its best-matching related word, for every live document holding any of them.
   */
  score(terms: readonly WeightedTerm[]): Scored {
    // Dense per-slot scores: scoring walks tens of thousands of list entries a search.
    if (this.#lexical.length === this.#slots) this.#lexical.fill(0);
    else this.#lexical = new Float64Array(this.#slots);
    const lexical = this.#lexical;
    const best = this.#groupScores;
    const removed = this.#removedSlots > 0 ? this.#removed : undefined;
    const groups: WeighedTerm[][] = [];
    let maxScore = 0;
    for (const group of groupBySource(terms)) {
      const weighed: WeighedTerm[] = [];
      const lists: Postings[] = [];
      const factors: number[] = [];
      // A related word never counts more than the query word itself would (rare
      // synonyms have a high idf); a query word the index lacks sets no cap.
      const head = group[0];
      const sourceIdf = this.idf(head?.source ?? "");
      // The best a group can add: its query word matched at that word's own weight.
      let groupMax = sourceIdf * (head !== undefined && head.term === head.source ? head.weight : 1);
      // A query word and its related words count once: the best match among them.
      for (const { term, weight } of group) {
        const postings = this.#lists.get(term);
        if (!postings || postings.live === 0) continue;
        const idf = sourceIdf > 0 ? Math.min(sourceIdf, this.idf(term)) : this.idf(term);
        const factor = idf * weight;
        weighed.push({ term, factor });
        lists.push(postings);
        factors.push(factor);
        groupMax = Math.max(groupMax, factor);
      }
      if (lists.length === 1) addTo(lexical, lists[0] as Postings, factors[0] as number);
      else if (lists.length > 1) addBest(lexical, best, lists, factors);
      maxScore += groupMax;
      if (weighed.length > 0) groups.push(weighed);
    }
    if (removed !== undefined) zeroRemoved(lexical, removed);
    return { lexical, best: highest(lexical), maxScore, groups };
  }
}
