/** What a search document describes: an upstream tool, or (later) a saved skill. */
export type SearchDocumentKind = "tool" | "skill";

export interface SearchDocumentParam {
  readonly name: string;
  readonly description?: string;
}

/**
 * One searchable thing. `id` is unique in an index (for tools `server/tool` with the
 * original names); `server` groups documents for `replaceServer`/`removeServer`.
 */
export interface SearchDocument {
  readonly id: string;
  readonly kind: SearchDocumentKind;
  readonly server?: string;
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly params: readonly SearchDocumentParam[];
  /** Short words that describe behaviour, e.g. `read only`, `destructive`. */
  readonly annotations?: readonly string[];
  readonly serverDescription?: string;
}

export interface SearchOptions {
  /** Most results returned; default `DEFAULT_SEARCH_LIMIT`. */
  readonly limit?: number;
  /** Results scoring below this are dropped (scores are in 0..1, the best hit near 1). */
  readonly minScore?: number;
  /** Only these kinds; default every kind. */
  readonly kinds?: readonly SearchDocumentKind[];
}

export interface SearchHit {
  readonly id: string;
  readonly kind: SearchDocumentKind;
  readonly server?: string;
  readonly name: string;
  /** Relevance in 0..1: 1 for the best possible match of the query. */
  readonly score: number;
  /**
   * The request's words (as written) that this hit matches, itself or by a related word;
   * empty for a hit found by meaning alone. Undefined: the index does not say.
   */
  readonly matched?: readonly string[];
}

export const DEFAULT_SEARCH_LIMIT = 10;

/**
 * Longest query read, in characters: a request says what it needs in far fewer, and reading
 * text costs time on the gateway's thread, which serves every session.
 */
export const MAX_QUERY_CHARS = 2_000;

/** The search seam (DESIGN.md §2): kept up to date as servers connect, change and leave. */
export interface SearchIndex {
  /** Adds documents, replacing any with the same id. */
  add(documents: readonly SearchDocument[]): void;
  /** Removes documents by id; unknown ids are ignored. */
  remove(ids: readonly string[]): void;
  /** Makes `documents` the whole set of one server's documents (connect, `list_changed`). */
  replaceServer(server: string, documents: readonly SearchDocument[]): void;
  /** Drops every document of a server (disconnect). */
  removeServer(server: string): void;
  get(id: string): SearchDocument | undefined;
  readonly size: number;
  search(query: string, options?: SearchOptions): SearchHit[];
}
