import type { CatalogTool, ToolDefinition } from "./types.ts";

/** Words that cannot name a function or binding (ES reserved, strict-mode and TS-contextual ones that bite). */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  "arguments",
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "eval",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  "undefined",
  "NaN",
  "Infinity",
]);

/**
 * Names that would shadow Object.prototype members on the `tools` objects, or make a
 * namespace object look like a thenable (`then`) when it is awaited.
 */
const UNSAFE_PROPERTY_NAMES: ReadonlySet<string> = new Set([
  "constructor",
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
  "then",
]);

const COMBINING_MARKS = /\p{M}+/gu;
const INVALID_RUN = /[^A-Za-z0-9_]+/g;

/** A valid, deterministic JS identifier for any MCP server or tool name. */
export function toIdentifier(name: string): string {
  // NFKD splits accented letters into ASCII base + combining mark, so "café" reads "cafe".
  const ascii = name.normalize("NFKD").replace(COMBINING_MARKS, "");
  let id = ascii.replace(INVALID_RUN, "_");
  if (id === "") return "_";
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED_WORDS.has(id) || UNSAFE_PROPERTY_NAMES.has(id)) id = `${id}_`;
  return id;
}

/** Code-unit order: stable across machines and locales, unlike `localeCompare`. */
export function compareStrings(a: string, b: string): number {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}

/**
 * Original name → identifier, unique within `names`. When several names map to the
 * same identifier, the name that already is that identifier keeps it, then the others
 * in sorted order of their original names get `_2`, `_3`, ... so the result does not
 * depend on the order of `names`. Entries come in sorted order of the names.
 */
export function assignIdentifiers(names: readonly string[]): Map<string, string> {
  const unique = [...new Set(names)].sort(compareStrings);
  const groups = new Map<string, string[]>();
  for (const name of unique) {
    const base = toIdentifier(name);
    const group = groups.get(base);
    if (group) group.push(name);
    else groups.set(base, [name]);
  }
  const assigned = new Map<string, string>();
  const taken = new Set(groups.keys());
  const losers: Array<{ name: string; base: string }> = [];
  for (const base of [...groups.keys()].sort(compareStrings)) {
    const group = groups.get(base) ?? [];
    const exact = group.indexOf(base);
    const winner = exact >= 0 ? base : group[0];
    for (const name of group) {
      if (name === winner) assigned.set(name, base);
      else losers.push({ name, base });
    }
  }
  for (const { name, base } of losers) {
    let n = 2;
    while (taken.has(`${base}_${n}`)) n += 1;
    const id = `${base}_${n}`;
    taken.add(id);
    assigned.set(name, id);
  }
  return new Map(unique.map((name) => [name, assigned.get(name) ?? toIdentifier(name)]));
}

/** `read_file` → `ReadFile`; always a valid type name (never empty, never starting with a digit). */
export function toPascalCase(id: string): string {
  const pascal = id
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== "")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
  if (pascal === "" || /^[0-9]/.test(pascal)) return `T${pascal}`;
  return pascal;
}

/**
 * The catalog entries of one server, sorted by tool identifier. A tool name listed twice
 * keeps its first definition: a call by name could not tell the two apart.
 */
export function buildCatalogTools(server: string, serverId: string, defs: ToolDefinition[]): CatalogTool[] {
  const byName = new Map<string, ToolDefinition>();
  for (const def of defs) if (!byName.has(def.name)) byName.set(def.name, def);
  const ids = assignIdentifiers([...byName.keys()]);
  const tools: CatalogTool[] = [];
  for (const [name, definition] of byName) {
    const toolId = ids.get(name) ?? toIdentifier(name);
    tools.push({ server, tool: name, serverId, toolId, path: `tools.${serverId}.${toolId}`, definition });
  }
  return tools.sort((a, b) => compareStrings(a.toolId, b.toolId));
}
