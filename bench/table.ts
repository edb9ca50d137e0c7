import { markdownTable } from "../src/text/markdown-table.ts";

/** Prints rows as an aligned Markdown table on stdout. */
export function printTable(
  title: string,
  headers: readonly string[],
  rows: ReadonlyArray<readonly (string | number)[]>,
): void {
  process.stdout.write(markdownTable(title, headers, rows));
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
