import type { ToolMatch } from "../search/index.ts";
import { splitIdentifiers, terms } from "../search/tokenize.ts";

/**
 * How much of a task a saved skill or tool says it does: the share (0..1) of
 * the task's content words (stemmed) found in the candidate's text. Search ranks
 * candidates relative to each other (its best hit scores near 1 however loose
 * the fit); this is absolute, and one-sided on purpose: "add two numbers, then
 * double the sum" is not covered by a tool that only adds, however high it ranks.
 * Two tasks (a generated tool's and a new one) are compared both ways, the lower
 * share kept: "…then triple the sum" is not "…then double the sum".
 */
export function taskSimilarity(
  task: string,
  candidate: string,
  options: { bothWays?: boolean } = {},
): number {
  const wanted = new Set(terms(task));
  const offered = new Set(terms(candidate));
  const forward = coverage(wanted, offered);
  return options.bothWays ? Math.min(forward, coverage(offered, wanted)) : forward;
}

function coverage(wanted: ReadonlySet<string>, offered: ReadonlySet<string>): number {
  if (wanted.size === 0) return 0;
  // Stems one letter apart at the end are the same word: Porter2 makes "added" "ad" but "add" "add".
  const shortened = new Set([...offered].filter((term) => term.length >= 3).map((term) => term.slice(0, -1)));
  let covered = 0;
  for (const term of wanted) {
    const near =
      (term.length >= 3 && offered.has(term.slice(0, -1))) || (term.length >= 2 && shortened.has(term));
    if (offered.has(term) || near) covered += 1;
  }
  return covered / wanted.size;
}

/** What a tool or a written skill says of itself, for `taskSimilarity`. */
export function matchText(match: ToolMatch, skillDescription?: string): string {
  if (match.tool) {
    const { definition } = match.tool;
    const params = Object.keys(
      (definition.inputSchema as { properties?: Record<string, unknown> }).properties ?? {},
    );
    return [
      splitIdentifiers(match.tool.tool),
      definition.title ?? "",
      definition.description ?? "",
      ...params,
    ].join(" ");
  }
  return [splitIdentifiers(match.result.tool), skillDescription ?? match.result.description].join(" ");
}
