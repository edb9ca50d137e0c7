const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 12345 -> "12,345": counts in markers and notes, stable across locales. */
export function formatCount(value: number): string {
  return GROUPED.format(value);
}
