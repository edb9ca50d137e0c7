/** A progress line shows this much of a tool call's arguments. */
export const MAX_SUMMARY_CHARS = 80;

/**
 * A one-line view of a tool call's arguments for progress output: the first line
 * of a program (`code`) or task (`task_description`) with the count of the rest,
 * a search query, described names; otherwise the arguments as compact JSON.
 */
export function summarizeToolInput(input: Record<string, unknown>): string {
  const { code, task_description: task, query, names } = input;
  if (typeof code === "string") return firstLine(code);
  if (typeof task === "string") return firstLine(task);
  if (typeof query === "string") return clip(JSON.stringify(query));
  if (Array.isArray(names) && names.every((name) => typeof name === "string")) return clip(names.join(", "));
  const json = JSON.stringify(input);
  return json === "{}" ? "" : clip(json);
}

function firstLine(text: string): string {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const first = lines[0] ?? "";
  const rest = lines.length - 1;
  return rest > 0 ? `${clip(first, MAX_SUMMARY_CHARS - 14)} (+${rest} lines)` : clip(first);
}

function clip(text: string, max = MAX_SUMMARY_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
