// Tokens of search_tools answers (5 tools, each detail level) over the real fixture catalog,
// for the typical requests of the latency bench: what one search costs the agent's context.
import { Catalog } from "../../src/catalog/catalog.ts";
import type { Tokenizer } from "../../src/output/tokenizer.ts";
import { syncIndexWithCatalog } from "../../src/search/catalog-sync.ts";
import { DEFAULT_SEARCH_DETAIL, formatSearchResults, type SearchDetail } from "../../src/search/format.ts";
import { LexicalSearchIndex } from "../../src/search/lexical-index.ts";
import { searchTools } from "../../src/search/tool-results.ts";
import { fixtureCatalog } from "../../test/helpers/fixture-catalog.ts";
import { LATENCY_QUERIES } from "../search-latency.ts";
import { percentile } from "../table.ts";

const DETAILS: readonly SearchDetail[] = ["name", "summary", "declaration"];

export interface SearchAnswerTokens {
  readonly detail: SearchDetail;
  readonly isDefault: boolean;
  readonly median: number;
  readonly max: number;
}

export function searchAnswerTokens(tokenizer: Tokenizer, limit = 5): SearchAnswerTokens[] {
  const tools = fixtureCatalog().tools;
  const servers = [...new Set(tools.map((tool) => tool.server))];
  const catalog = new Catalog(servers);
  for (const server of servers)
    catalog.setServerTools(
      server,
      tools.filter((tool) => tool.server === server),
    );
  const index = new LexicalSearchIndex();
  syncIndexWithCatalog(index, catalog);
  return DETAILS.map((detail) => {
    const counts = LATENCY_QUERIES.map((query) =>
      tokenizer.count(formatSearchResults(searchTools(index, catalog, query, { limit }), detail)),
    ).sort((a, b) => a - b);
    return {
      detail,
      isDefault: detail === DEFAULT_SEARCH_DETAIL,
      median: percentile(counts, 50),
      max: counts.at(-1) ?? 0,
    };
  });
}
