import type { CatalogTool } from "../catalog/types.ts";
import { escapeRegExp } from "../text/escape-regexp.ts";

/**
 * A predicate over tools from `server/tool` globs (`*` matches any run of
 * characters), on the original names. A glob without `/` names a whole server.
 */
export function toolGlobMatcher(globs: readonly string[]): (tool: CatalogTool) => boolean {
  const patterns = globs.map((glob) => {
    const full = glob.includes("/") ? glob : `${glob}/*`;
    const source = full.split("*").map(escapeRegExp).join(".*");
    return new RegExp(`^${source}$`);
  });
  return (tool) => {
    const name = `${tool.server}/${tool.tool}`;
    return patterns.some((pattern) => pattern.test(name));
  };
}
