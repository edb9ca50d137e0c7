import { renderToolDeclaration } from "../catalog/declaration/tool-declaration.ts";
import type { JsonSchema } from "../catalog/types.ts";
import type { SkillMatchInfo, ToolMatch, ToolSearchResult } from "./tool-results.ts";

/** How much of each tool a search answer shows. */
export type SearchDetail = "name" | "summary" | "declaration";

export const DEFAULT_SEARCH_DETAIL: SearchDetail = "summary";
/** Parameters listed per tool in a `summary` answer before `…`. */
export const SUMMARY_MAX_PARAMS = 6;
/** An enum is shown as its literals when it has at most this many. */
const ENUM_MAX_LITERALS = 4;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A one-word type for a parameter: enough to call the tool, not a full declaration. */
function briefType(schema: unknown): string {
  if (!isRecord(schema)) return "unknown";
  if (Array.isArray(schema.enum) && schema.enum.length <= ENUM_MAX_LITERALS) {
    return schema.enum.map((value) => JSON.stringify(value)).join("|");
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
    case "number":
    case "boolean":
      return type;
    case "integer":
      return "number";
    case "array":
      return `${briefType(schema.items)}[]`;
    case "object":
      return "object";
    default:
      return "unknown";
  }
}

/** `{ path: string, head?: number }`: the top-level parameters of an input schema, in brief. */
export function briefParams(schema: JsonSchema): string {
  const properties = isRecord(schema.properties) ? Object.entries(schema.properties) : [];
  if (properties.length === 0) return "()";
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const shown = properties.slice(0, SUMMARY_MAX_PARAMS).map(([name, property]) => {
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
    return `${key}${required.has(name) ? "" : "?"}: ${briefType(property)}`;
  });
  if (properties.length > SUMMARY_MAX_PARAMS) shown.push("…");
  return `({ ${shown.join(", ")} })`;
}

/**
 * Which request words a result matched, when it matched fewer than the answer's results
 * together (`words`, the words any of them matched): ` (matched: send, email)`, or
 * ` (by meaning)` for one no word matched. Results that match every word go without, which
 * keeps the usual answer as short as before; a partial match stands out, a hint to search
 * again in other words when results do not fit.
 */
export function matchNote(result: Pick<ToolSearchResult, "matched">, words: number): string {
  if (result.matched.length === 0) return " (by meaning)";
  return result.matched.length < words ? ` (matched: ${result.matched.join(", ")})` : "";
}

/** How many request words the results match together. */
function matchedWordCount(matches: readonly ToolMatch[]): number {
  return new Set(matches.flatMap((match) => match.result.matched)).size;
}

/**
 * The text answer of a search, one block per tool, best first, each noting a partial match (`matchNote`):
 * - `name`: `tools.server.tool — first sentence (matched: …)`
 * - `summary`: the same with the parameters in brief, `tools.server.tool({ a: string, b?: number })`
 * - `declaration`: the full TypeScript declaration of each tool, the note on its first line.
 */
export function formatSearchResults(
  matches: readonly ToolMatch[],
  detail: SearchDetail = DEFAULT_SEARCH_DETAIL,
): string {
  if (matches.length === 0) return "No matching tools.";
  const words = matchedWordCount(matches);
  if (detail === "declaration")
    return matches
      .map(({ result, tool, skill }) => {
        const note = matchNote(result, words);
        // A declaration's first line is `// tools.server.tool`.
        if (tool) return renderToolDeclaration(tool).trimEnd().replace("\n", `${note}\n`);
        return skill.language === "python"
          ? `# from skills.${skill.module ?? skill.name} import ... (Python)${note}\n${skill.declaration.trimEnd()}`
          : `// import { ... } from "skills/${skill.name}"${note}\n${skill.declaration.trimEnd()}`;
      })
      .join("\n\n");
  return matches
    .map(({ result, tool, skill }) => {
      const call = skill
        ? `${result.path}${detail === "summary" ? skillSummary(skill) : ""}`
        : detail === "summary"
          ? `${result.path}${briefParams(tool.definition.inputSchema)}`
          : result.path;
      return `${result.description === "" ? call : `${call} — ${result.description}`}${matchNote(result, words)}`;
    })
    .join("\n");
}

/** How a skill hit is imported, in its language. */
function skillSummary(skill: SkillMatchInfo): string {
  return skill.language === "python"
    ? ` (Python skill: from skills.${skill.module ?? skill.name} import ${skill.exports.join(", ")})`
    : ` (skill: import { ${skill.exports.join(", ")} })`;
}
