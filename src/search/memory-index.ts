import { words } from "./tokenize.ts";
import {
  DEFAULT_SEARCH_LIMIT,
  type SearchDocument,
  type SearchHit,
  type SearchIndex,
  type SearchOptions,
} from "./types.ts";

/**
 * A trivial `SearchIndex` for tests and tiny catalogs: a document's score is the share
 * of the query's words found among its name, description and parameter words.
 */
export class MemorySearchIndex implements SearchIndex {
  readonly #docs = new Map<string, { doc: SearchDocument; words: Set<string> }>();

  get size(): number {
    return this.#docs.size;
  }

  get(id: string): SearchDocument | undefined {
    return this.#docs.get(id)?.doc;
  }

  add(documents: readonly SearchDocument[]): void {
    for (const doc of documents) {
      const text = [
        doc.name,
        doc.title ?? "",
        doc.description,
        ...doc.params.map((param) => param.name),
      ].join(" ");
      this.#docs.delete(doc.id);
      this.#docs.set(doc.id, { doc, words: new Set(words(text)) });
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) this.#docs.delete(id);
  }

  replaceServer(server: string, documents: readonly SearchDocument[]): void {
    this.removeServer(server);
    this.add(documents.map((doc) => ({ ...doc, server })));
  }

  removeServer(server: string): void {
    for (const [id, { doc }] of this.#docs) if (doc.server === server) this.#docs.delete(id);
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const wanted = [...new Set(words(query))];
    if (wanted.length === 0) return [];
    const hits: SearchHit[] = [];
    for (const { doc, words: have } of this.#docs.values()) {
      if (options.kinds && !options.kinds.includes(doc.kind)) continue;
      const matched = wanted.filter((word) => have.has(word));
      const score = matched.length / wanted.length;
      if (score > 0 && score >= (options.minScore ?? 0)) {
        hits.push({ id: doc.id, kind: doc.kind, server: doc.server, name: doc.name, score, matched });
      }
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, options.limit ?? DEFAULT_SEARCH_LIMIT);
  }
}
