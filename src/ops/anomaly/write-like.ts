import type { CatalogTool } from "../../catalog/types.ts";

/** Verbs of tools that change or send something, as words of the tool's name. */
const WRITE_VERBS = new Set([
  "create",
  "write",
  "send",
  "post",
  "delete",
  "remove",
  "update",
  "upload",
  "push",
  "put",
  "insert",
  "publish",
  "edit",
  "patch",
  "set",
  "save",
  "submit",
  "email",
  "share",
  "move",
  "append",
  "comment",
  "merge",
]);

/** `createIssue`, `send_message`, `files.upload` → their lower-case words. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Whether a tool name says it writes (a verb among its words); for tools without annotations. */
export function nameSaysWrite(name: string): boolean {
  return wordsOf(name).some((word) => WRITE_VERBS.has(word));
}

const decided = new WeakMap<CatalogTool, boolean>();

/**
 * Whether calling `tool` may change or send something (side-effecting):
 * its MCP annotations first (readOnlyHint true: no; destructiveHint true or
 * readOnlyHint false: yes), else a write verb in its name.
 */
export function isWriteLike(tool: CatalogTool): boolean {
  const known = decided.get(tool);
  if (known !== undefined) return known;
  const annotations = tool.definition.annotations;
  const writes =
    annotations?.readOnlyHint === true
      ? false
      : annotations?.destructiveHint === true || annotations?.readOnlyHint === false
        ? true
        : nameSaysWrite(tool.tool);
  decided.set(tool, writes);
  return writes;
}

/** What `writeLikeByName` needs of the catalog. */
export interface ToolDirectory {
  readonly version: number;
  server(name: string): { tools: readonly CatalogTool[] } | undefined;
}

/**
 * `isWriteLike` by `server` and `tool` name (what an audit record holds), cached
 * until the catalog changes; a tool no longer listed is judged by its name.
 */
export function writeLikeByName(directory: ToolDirectory): (server: string, tool: string) => boolean {
  let version = -1;
  const cache = new Map<string, boolean>();
  return (server, tool) => {
    if (directory.version !== version) {
      version = directory.version;
      cache.clear();
    }
    const key = `${server}\0${tool}`;
    let writes = cache.get(key);
    if (writes === undefined) {
      const found = directory.server(server)?.tools.find((entry) => entry.tool === tool);
      writes = found ? isWriteLike(found) : nameSaysWrite(tool);
      cache.set(key, writes);
    }
    return writes;
  };
}
