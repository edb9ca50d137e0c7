import type { IndexTerms } from "./partial-matches.ts";
import type { WeightedTerm } from "./query.ts";
import type { WeighedTerm } from "./word-coverage.ts";

/** Scored candidates of one ranking pass: `values[i]` is the score of document slot `slots[i]`. */
export interface Scored {
  readonly slots: number[];
  readonly values: number[];
  /** Upper bound of a score for this query: every original term matched at full weight. */
  readonly maxScore: number;
  /** Per query word, its terms the index holds with what a match on each counts. */
  readonly groups: readonly (readonly WeighedTerm[])[];
}

/** Documents holding a term, with the term's BM25F weight in each; removed slots linger until `clear`. */
interface Postings {
  readonly slots: number[];
  readonly weights: number[];
  /** Live documents holding the term (its document frequency). */
  live: number;
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
  /** The terms sorted, for prefix look-ups; rebuilt on first use after a new term. */
  #sorted: string[] | undefined;
  /** Scratch score arrays indexed by slot, all zero between calls. */
  #scores = new Float64Array(64);
  #groupScores = new Float64Array(64);

  add(slot: number, terms: readonly string[], weights: readonly number[]): void {
    if (this.#scores.length <= slot) {
      const size = Math.max(64, this.#scores.length * 2, slot + 1);
      this.#scores = new Float64Array(size);
      this.#groupScores = new Float64Array(size);
      const removed = new Uint8Array(size);
      removed.set(this.#removed);
      this.#removed = removed;
    }
    this.#removed[slot] = 0;
    this.#documents++;
    terms.forEach((term, i) => {
      let postings = this.#lists.get(term);
      if (!postings) {
        postings = { slots: [], weights: [], live: 0 };
        this.#lists.set(term, postings);
        this.#sorted = undefined;
      }
      postings.slots.push(slot);
      postings.weights.push(weights[i] ?? 0);
      postings.live++;
    });
  }

  /** Marks the document at `slot`, which holds `terms`, removed. */
  remove(slot: number, terms: readonly string[]): void {
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
    this.#removed.fill(0);
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
    const scores = this.#scores;
    const best = this.#groupScores;
    const removed = this.#removed;
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
      const sourceIdf = this.idf(head?.source ?? "");
      // The best a group can add: its query word matched at that word's own weight.
      let groupMax = sourceIdf * (head !== undefined && head.term === head.source ? head.weight : 1);
      for (const { term, weight } of group) {
        const postings = this.#lists.get(term);
        if (!postings || postings.live === 0) continue;
        const idf = sourceIdf > 0 ? Math.min(sourceIdf, this.idf(term)) : this.idf(term);
        const factor = idf * weight;
        weighed.push({ term, factor });
        groupMax = Math.max(groupMax, factor);
        const { slots: postingSlots, weights } = postings;
        for (let i = 0; i < postingSlots.length; i++) {
          const slot = postingSlots[i] ?? 0;
          if (removed[slot] === 1) continue;
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
}
