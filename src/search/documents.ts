import type { CatalogTool, JsonSchema, ToolAnnotations, ToolDefinition } from "../catalog/types.ts";
import type { SearchDocument, SearchDocumentParam } from "./types.ts";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Top-level properties of an input schema: their names and descriptions (or titles). */
export function schemaParams(schema: JsonSchema | undefined): SearchDocumentParam[] {
  const properties = schema?.properties;
  if (!isRecord(properties)) return [];
  return Object.entries(properties).map(([name, property]) => {
    const text = isRecord(property) ? (property.description ?? property.title) : undefined;
    return typeof text === "string" ? { name, description: text } : { name };
  });
}

/** The MCP hints as words an agent might search for ("read only", "destructive"). */
export function annotationWords(annotations: ToolAnnotations | undefined): string[] {
  if (!annotations) return [];
  const words: string[] = [];
  if (annotations.readOnlyHint === true) words.push("read only");
  if (annotations.destructiveHint === true && annotations.readOnlyHint !== true) words.push("destructive");
  if (annotations.openWorldHint === true) words.push("open world");
  return words;
}

/** The id of a tool's document: `server/tool` with the original names. */
export function toolDocumentId(server: string, tool: string): string {
  return `${server}/${tool}`;
}

/** A tool definition as a search document. */
export function toolDocument(
  server: string,
  definition: ToolDefinition,
  serverDescription?: string,
): SearchDocument {
  const title = definition.title ?? definition.annotations?.title;
  return {
    id: toolDocumentId(server, definition.name),
    kind: "tool",
    server,
    name: definition.name,
    ...(title ? { title } : {}),
    description: definition.description ?? "",
    params: schemaParams(definition.inputSchema),
    annotations: annotationWords(definition.annotations),
    ...(serverDescription ? { serverDescription } : {}),
  };
}

/** The documents of catalog tools (one server's, on connect or `list_changed`). */
export function catalogDocuments(
  tools: readonly CatalogTool[],
  serverDescription?: string,
): SearchDocument[] {
  return tools.map((tool) => toolDocument(tool.server, tool.definition, serverDescription));
}
