import type { Catalog } from "../catalog/catalog.ts";
import { firstSentence } from "../catalog/declaration/summary.ts";
import type { CatalogTool } from "../catalog/types.ts";
import { toolDocumentId } from "./documents.ts";
import type { SearchDocumentKind, SearchHit, SearchIndex, SearchOptions } from "./types.ts";

/** One search answer as other programs read it (`structuredContent.results`), original names. */
export interface ToolSearchResult {
  readonly server: string;
  readonly tool: string;
  /** Call path in code: `tools.<serverId>.<toolId>`. */
  readonly path: string;
  /** First sentence of the tool's description. */
  readonly description: string;
  readonly score: number;
  /** The request's words it matches (itself or by a related word); empty when found by meaning alone. */
  readonly matched: readonly string[];
}

/** A saved skill found by search: `import { ... } from "skills/<name>"`. */
export interface SkillMatchInfo {
  readonly name: string;
  readonly declaration: string;
  /** Exported names (`default` for a default export). */
  readonly exports: readonly string[];
  /** Default `typescript`; a Python skill is imported as `from skills.<module> import f`. */
  readonly language?: "typescript" | "python";
  /** A Python skill's module under `skills.` (its name with `-` as `_`). */
  readonly module?: string;
}

/** A result together with the catalog tool (or saved skill) it names, for the longer answer formats. */
export type ToolMatch =
  | { readonly result: ToolSearchResult; readonly tool: CatalogTool; readonly skill?: undefined }
  | { readonly result: ToolSearchResult; readonly skill: SkillMatchInfo; readonly tool?: undefined };

/** Score rounding in answers: three decimals say enough and keep answers short. */
const SCORE_DECIMALS = 3;

/**
 * Searches `index` for tools and resolves each hit in `catalog`; hits the catalog no longer has are dropped.
 * With `resolveSkill`, skills are ranked with the tools and each skill hit is resolved by it (undefined drops it).
 */
export function searchTools(
  index: SearchIndex,
  catalog: Catalog,
  query: string,
  options: SearchOptions = {},
  resolveSkill?: (hit: SearchHit, score: number) => ToolMatch | undefined,
): ToolMatch[] {
  const byId = new Map<string, CatalogTool>();
  const matches: ToolMatch[] = [];
  const kinds: SearchDocumentKind[] = resolveSkill ? ["tool", "skill"] : ["tool"];
  for (const hit of index.search(query, { ...options, kinds })) {
    if (hit.kind === "skill") {
      const match = resolveSkill?.(hit, Number(hit.score.toFixed(SCORE_DECIMALS)));
      if (match) matches.push(match);
      continue;
    }
    if (hit.server === undefined) continue;
    let tool = byId.get(hit.id);
    if (!tool) {
      tool = catalog
        .server(hit.server)
        ?.tools.find((entry) => toolDocumentId(entry.server, entry.tool) === hit.id);
      if (!tool) continue;
      byId.set(hit.id, tool);
    }
    const { definition } = tool;
    const text = definition.description?.trim() ? definition.description : (definition.title ?? "");
    matches.push({
      result: {
        server: tool.server,
        tool: tool.tool,
        path: tool.path,
        description: firstSentence(text),
        score: Number(hit.score.toFixed(SCORE_DECIMALS)),
        matched: [...(hit.matched ?? [])],
      },
      tool,
    });
  }
  return matches;
}
