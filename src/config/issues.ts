/** One problem found in a config, as data. `path` is empty for the document itself. */
export interface ConfigIssue {
  /** Dotted path of the bad field: `mcpServers.github.command`, `toolscript.policy.deny[0]`. */
  path: string;
  message: string;
}

export type PathSegment = string | number;

// Keys that read unambiguously after a dot; others (`github.com`, `1password`, ``) are bracketed.
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** `["mcpServers", "github.com", "args", 0]` → `mcpServers["github.com"].args[0]`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

export const ROOT_PATH_LABEL = "(root)";

/** One issue per line: `mcpServers.github.command: expected string, received number`. */
export function formatIssues(issues: readonly ConfigIssue[]): string {
  return issues
    .map((issue) => `${issue.path === "" ? ROOT_PATH_LABEL : issue.path}: ${issue.message}`)
    .join("\n");
}
