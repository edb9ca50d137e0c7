import { isRecord } from "./json.ts";

/** Longest JSON value kept in a `@default` / `@example` / `@pattern` tag; longer ones are dropped, not cut. */
export const DEFAULT_TAG_VALUE_MAX_CHARS = 60;

/** Keeps text from closing the comment it is written in. */
export function escapeJsDoc(text: string): string {
  return text.replaceAll("*/", "*\\/");
}

/** Description text as comment lines: trimmed, no trailing spaces, at most one blank line in a row. */
export function descriptionLines(text: string): string[] {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .trim()
    .split("\n")
    .map((line) => escapeJsDoc(line.trimEnd()));
  if (lines.length === 1 && lines[0] === "") return [];
  return lines.filter((line, i) => line !== "" || lines[i - 1] !== "");
}

function jsonTag(tag: string, value: unknown, maxChars: number): string | undefined {
  const json = JSON.stringify(value);
  if (json === undefined || json.length > maxChars) return undefined;
  return `@${tag} ${json}`;
}

/** Short JSDoc tags for the constraints and hints of a schema that a caller benefits from knowing. */
export function schemaTags(
  schema: Record<string, unknown>,
  maxChars = DEFAULT_TAG_VALUE_MAX_CHARS,
): string[] {
  const tags: string[] = [];
  if (schema.deprecated === true) tags.push("@deprecated");
  if ("default" in schema) {
    const tag = jsonTag("default", schema.default, maxChars);
    if (tag) tags.push(tag);
  }
  if (typeof schema.format === "string" && schema.format.length <= maxChars)
    tags.push(`@format ${schema.format}`);
  for (const key of ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "maxLength"] as const) {
    const value = schema[key];
    // Bounds at the safe-integer limits only restate "integer" (zod emits them on every int).
    if (typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER) tags.push(`@${key} ${value}`);
  }
  if (typeof schema.pattern === "string" && schema.pattern.length <= maxChars)
    tags.push(`@pattern ${schema.pattern}`);
  const example = Array.isArray(schema.examples) ? schema.examples[0] : schema.example;
  if (example !== undefined) {
    const tag = jsonTag("example", example, maxChars);
    if (tag) tags.push(tag);
  }
  return tags.map(escapeJsDoc);
}

/**
 * Comment lines for a schema: its description, then its tags on one line (on the
 * description's own line when the description is a single line, to stay compact).
 */
export function schemaDocLines(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const lines = typeof schema.description === "string" ? descriptionLines(schema.description) : [];
  return appendTags(lines, schemaTags(schema));
}

/** Adds a line of tags, joined to a single-line description. */
export function appendTags(lines: readonly string[], tags: readonly string[]): string[] {
  if (tags.length === 0) return [...lines];
  const tagLine = tags.join(" ");
  if (lines.length === 0) return [tagLine];
  if (lines.length === 1) return [`${lines[0]} ${tagLine}`];
  return [...lines, tagLine];
}

/** `/** one line *\/` or a multi-line block; each line ends with a newline; empty when there is nothing to say. */
export function renderJsDoc(lines: readonly string[], indent = ""): string {
  if (lines.length === 0) return "";
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  const body = lines.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`)).join("\n");
  return `${indent}/**\n${body}\n${indent} */\n`;
}
