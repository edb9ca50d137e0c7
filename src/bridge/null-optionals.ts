import type { JsonSchema } from "../catalog/types.ts";

/**
 * `null` for an optional argument whose schema does not admit null reads as
 * "not given", as MCP does for `x-mcp-header` parameters and as programs
 * written from TypeScript declarations (`verbose?: boolean | null`-style
 * habits) expect: the property is dropped before validation and never sent.
 * Required properties and properties whose schema allows null are kept.
 */
export function dropNullOptionals(schema: JsonSchema, args: unknown): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null) return args;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  let result: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (value !== null || required.has(key)) continue;
    const property: unknown = (properties as Record<string, unknown>)[key];
    if (property === undefined || admitsNull(property)) continue;
    result ??= { ...(args as Record<string, unknown>) };
    delete result[key];
  }
  return result ?? args;
}

function admitsNull(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return true; // `true` or odd schemas: leave it to validation
  const node = schema as Record<string, unknown>;
  const type = node.type;
  if (type === undefined && node.const === undefined && node.enum === undefined) {
    const branches = [node.anyOf, node.oneOf].filter(Array.isArray).flat();
    return branches.length === 0 || branches.some(admitsNull);
  }
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (node.const === null) return true;
  return Array.isArray(node.enum) && node.enum.includes(null);
}
