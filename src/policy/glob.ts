/**
 * A `server/tool` pattern: `*` matches within one part (no `/`), `?` one
 * character, `**` anything. Case-sensitive, like MCP names.
 */
export function compileGlob(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  // A pattern without a `/` names a server: "github" means "github/*".
  if (!pattern.includes("/")) source += "/[^/]*";
  return new RegExp(`^${source}$`);
}

/** Matches a tool against compiled patterns by its original and its identifier names. */
export function matchesAny(patterns: readonly RegExp[], names: readonly string[]): string | undefined {
  for (const pattern of patterns) {
    if (names.some((name) => pattern.test(name))) return pattern.source;
  }
  return undefined;
}
