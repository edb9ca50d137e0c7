/** Containers whose one-line JSON is at most this long stay on one line. */
const INLINE_CHARS = 100;
/** Below this depth, long containers put one child per line; deeper ones stay compact. */
const LAYOUT_DEPTH = 2;
/** Lists longer than this keep each item on one line. */
const SHORT_LIST = 3;

/**
 * Renders a returned value for the model: strings as they are, everything else as
 * compact JSON with one array item or object entry per line at the top levels.
 * Pretty-printing every level (JSON.stringify(v, null, 2)) costs 30–70% more tokens
 * on arrays of records; one record per line stays readable.
 */
export function renderValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "undefined";
  return layout(value, 0);
}

function layout(value: unknown, depth: number): string {
  const compact = toJson(value);
  if (
    compact.length <= INLINE_CHARS ||
    depth >= LAYOUT_DEPTH ||
    value === null ||
    typeof value !== "object"
  ) {
    return compact;
  }
  const indent = "  ".repeat(depth + 1);
  const close = "  ".repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    // A list of records reads best as one record per line; a short list may lay out its items.
    const itemDepth = value.length > SHORT_LIST ? LAYOUT_DEPTH : depth + 1;
    const items = value.map((item) => indent + layout(item ?? null, itemDepth));
    return `[\n${items.join(",\n")}\n${close}]`;
  }
  const entries = Object.entries(value).filter(([, child]) => child !== undefined);
  if (entries.length === 0) return "{}";
  const lines = entries.map(([key, child]) => `${indent}${JSON.stringify(key)}: ${layout(child, depth + 1)}`);
  return `{\n${lines.join(",\n")}\n${close}}`;
}

function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Values crossing the sandbox boundary are JSON already; this guards direct library use.
    return String(value);
  }
}
