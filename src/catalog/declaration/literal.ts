import { isRecord } from "./json.ts";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as written in a type literal: bare when it is an identifier, quoted otherwise. */
export function formatPropertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** The TypeScript literal type of a JSON value (`const`, `enum` members). */
export function renderLiteral(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "number";
  if (typeof value === "boolean") return String(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return `[${value.map(renderLiteral).join(", ")}]`;
  if (isRecord(value)) {
    const members = Object.entries(value).map(([k, v]) => `${formatPropertyKey(k)}: ${renderLiteral(v)}`);
    return members.length === 0 ? "Record<string, never>" : `{ ${members.join("; ")} }`;
  }
  return "unknown";
}
