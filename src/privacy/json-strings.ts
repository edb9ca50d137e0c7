/** Deep copy of a JSON value with `map` applied to every string, object keys included. */
export function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const mappedKey = map(key);
      const mapped = mapStrings(child, map);
      // A "__proto__" key from JSON stays a key instead of replacing the prototype.
      if (mappedKey === "__proto__") {
        Object.defineProperty(out, mappedKey, {
          value: mapped,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        out[mappedKey] = mapped;
      }
    }
    return out;
  }
  return value;
}

/** Visits every string of a JSON value, object keys included, in the order `mapStrings` maps them. */
export function forEachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === "string") {
    visit(value);
  } else if (Array.isArray(value)) {
    for (const item of value) forEachString(item, visit);
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      visit(key);
      forEachString(child, visit);
    }
  }
}
