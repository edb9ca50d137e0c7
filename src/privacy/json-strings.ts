/** Deep copy of a JSON value with `map` applied to every string, object keys included. */
export function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const mappedKey = map(key);
      setOwn(out, mappedKey, mapStrings(child, map));
    }
    return out;
  }
  return value;
}

/** `out[key] = value`, where a "__proto__" key from JSON stays a key instead of replacing the prototype. */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    out[key] = value;
  }
}
