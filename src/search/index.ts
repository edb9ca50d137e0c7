// The search module's public surface (the gateway and the library entry import from here).
export { syncIndexWithCatalog } from "./catalog-sync.ts";
export { catalogDocuments, toolDocument, toolDocumentId } from "./documents.ts";
export { DEFAULT_SEARCH_DETAIL, formatSearchResults, type SearchDetail } from "./format.ts";
export { LazySearchIndex } from "./lazy-index.ts";
export { LexicalSearchIndex } from "./lexical-index.ts";
export type { LexicalSearchIndexOptions } from "./lexical-index-options.ts";
export { MemorySearchIndex } from "./memory-index.ts";
export { type SkillMatchInfo, searchTools, type ToolMatch, type ToolSearchResult } from "./tool-results.ts";
export {
  DEFAULT_SEARCH_LIMIT,
  MAX_QUERY_CHARS,
  type SearchDocument,
  type SearchDocumentKind,
  type SearchDocumentParam,
  type SearchHit,
  type SearchIndex,
  type SearchOptions,
} from "./types.ts";
