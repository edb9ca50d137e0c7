/**
 * Exported names read off a skill's declaration (`.d.ts` as the compiler
 * emits it): enough for search answers and import checks without loading
 * the compiler again.
 */
const DECLARED =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|const|let|var|class|enum|interface|type|namespace)\s+([A-Za-z_$][\w$]*)/gm;
const DEFAULT_EXPORT = /^export\s+(?:default\s|\{[^}]*\bas\s+default\b)/m;
const LIST = /^export\s+(type\s+)?\{([^}]*)\}/gm;

export interface DeclaredExports {
  /** Everything an import may name, values and types, `default` included. */
  names: string[];
  /** Names that are types only (erased at run time). */
  types: string[];
}

export function declaredExports(declaration: string): DeclaredExports {
  const names = new Set<string>();
  const types = new Set<string>();
  for (const match of declaration.matchAll(DECLARED)) {
    const [text, kind, name] = match;
    if (name === undefined) continue;
    if (/^export\s+(?:declare\s+)?default\s/.test(text)) {
      names.add("default");
      continue;
    }
    names.add(name);
    if (kind === "interface" || kind === "type") types.add(name);
  }
  if (DEFAULT_EXPORT.test(declaration)) names.add("default");
  for (const match of declaration.matchAll(LIST)) {
    for (const item of (match[2] ?? "").split(",")) {
      const parts = item.trim().split(/\s+as\s+/);
      const name = (parts[1] ?? parts[0] ?? "").replace(/^type\s+/, "").trim();
      if (name === "") continue;
      names.add(name);
      if (match[1] || /^type\s/.test(item.trim())) types.add(name);
    }
  }
  return { names: [...names].sort(), types: [...types].sort() };
}
