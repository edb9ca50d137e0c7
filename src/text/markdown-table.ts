/**
 * Rows as an aligned Markdown table under a `### title` heading, the format of
 * every table the bench and the eval print (leading blank line, trailing newline).
 */
export function markdownTable(
  title: string,
  headers: readonly string[],
  rows: ReadonlyArray<readonly (string | number)[]>,
): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  return [
    "",
    `### ${title}`,
    "",
    line(headers),
    `| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`,
    ...cells.slice(1).map(line),
    "",
  ].join("\n");
}
