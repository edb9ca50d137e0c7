import type { SearchDocument, SearchHit, SearchIndex, SearchOptions } from "./types.ts";

/**
 * A `SearchIndex` that builds the real one on the first search: the lexical index
 * parses WordNet, the word neighbours and the word vectors (~65 MB resident), and a
 * gateway whose agents never search should not pay for them. Until then it keeps
 * the documents as they would stand in an index that had them all along, in the
 * order each was last added (what the built index numbers its slots by, so ties
 * rank the same), and hands them over in one `add`.
 */
export class LazySearchIndex implements SearchIndex {
  readonly #build: () => SearchIndex;
  #index: SearchIndex | undefined;
  /** Id → document; a re-added document moves to the end, as it takes a new slot in the built index. */
  readonly #documents = new Map<string, SearchDocument>();

  constructor(build: () => SearchIndex) {
    this.#build = build;
  }

  /** Whether the real index exists (a search happened). */
  get built(): boolean {
    return this.#index !== undefined;
  }

  get size(): number {
    return this.#index?.size ?? this.#documents.size;
  }

  get(id: string): SearchDocument | undefined {
    return this.#index ? this.#index.get(id) : this.#documents.get(id);
  }

  add(documents: readonly SearchDocument[]): void {
    if (this.#index) {
      this.#index.add(documents);
      return;
    }
    for (const doc of documents) {
      this.#documents.delete(doc.id);
      this.#documents.set(doc.id, doc);
    }
  }

  remove(ids: readonly string[]): void {
    if (this.#index) this.#index.remove(ids);
    else for (const id of ids) this.#documents.delete(id);
  }

  replaceServer(server: string, documents: readonly SearchDocument[]): void {
    if (this.#index) {
      this.#index.replaceServer(server, documents);
      return;
    }
    const kept = new Set(documents.map((doc) => doc.id));
    const stale = [...this.#documents.values()].filter((doc) => doc.server === server && !kept.has(doc.id));
    this.remove(stale.map((doc) => doc.id));
    this.add(documents.map((doc) => (doc.server === server ? doc : { ...doc, server })));
  }

  removeServer(server: string): void {
    if (this.#index) this.#index.removeServer(server);
    else for (const [id, doc] of this.#documents) if (doc.server === server) this.#documents.delete(id);
  }

  search(query: string, options?: SearchOptions): SearchHit[] {
    return this.#built().search(query, options);
  }

  #built(): SearchIndex {
    if (this.#index) return this.#index;
    const index = this.#build();
    index.add([...this.#documents.values()]);
    this.#documents.clear();
    this.#index = index;
    return index;
  }
}
