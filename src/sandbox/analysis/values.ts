/**
 * How the analysis helpers see values: as JSON. The kinds, the equality, the
 * ordering and the way a value is quoted in a message are defined here once,
 * and analysis.py defines them the same way, so both languages agree on every
 * row: `true` is not `1`, `1` is `1.0`, `"10"` is not `10`.
 */

export type JsonKind = "null" | "boolean" | "number" | "string" | "array" | "object";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isNumber(value: unknown): value is number {
  return typeof value === "number";
}

export function kindOf(value: unknown): JsonKind | string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const MAX_SHOWN = 60;

/** At most MAX_SHOWN code points (as Python counts), then "…". */
function clip(text: string): string {
  if (text.length <= MAX_SHOWN) return text;
  const points = Array.from(text.slice(0, MAX_SHOWN * 2 + 2));
  return points.length <= MAX_SHOWN ? text : `${points.slice(0, MAX_SHOWN - 1).join("")}…`;
}

/** The value as JSON, clipped: how messages quote it. */
export function show(value: unknown): string {
  return clip(JSON.stringify(value) ?? "null");
}

/** `string "x"`, `number 5`, `boolean true`, `null`, `array`, `object`: what a message says it got. */
export function describe(value: unknown): string {
  const kind = kindOf(value);
  return kind === "array" || kind === "object" || kind === "null" ? kind : `${kind} ${show(value)}`;
}

/** JSON equality: numbers by value, arrays in order, objects by their keys whatever their order. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!equal(a[index], b[index])) return false;
    return true;
  }
  if (isRecord(a)) {
    if (!isRecord(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) if (!Object.hasOwn(b, key) || !equal(a[key], b[key])) return false;
    return true;
  }
  return (a === undefined && b === null) || (a === null && b === undefined);
}

/** Strings by code point, as Python orders them (UTF-16 units differ only past U+FFFF against U+E000–U+FFFF). */
function compareText(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x === y) continue;
    const xSurrogate = x >= 0xd800 && x <= 0xdfff;
    const ySurrogate = y >= 0xd800 && y <= 0xdfff;
    if (xSurrogate !== ySurrogate) return xSurrogate ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** -1, 0 or 1 for two numbers or two strings; undefined for any other pair (they do not compare). */
export function compare(a: unknown, b: unknown): number | undefined {
  if (isNumber(a) && isNumber(b)) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return compareText(a, b);
  return undefined;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical(value[key]);
    return out;
  }
  return value === undefined ? null : value;
}

/** One value's identity: the kind's letter, then the value (JSON for strings and compound values). */
function valueKey(value: unknown): string {
  if (value === null || value === undefined) return "z";
  switch (typeof value) {
    case "number":
      return `n${value === 0 ? 0 : value}`;
    case "boolean":
      return value ? "t" : "f";
    case "string":
      return `s${JSON.stringify(value)}`;
    default:
      return `j${JSON.stringify([kindOf(value), canonical(value)])}`;
  }
}

/** A string equal for two lists of values exactly when `equal` holds for each: the identity of a group. */
export function groupKey(values: readonly unknown[]): string {
  // A single value needs no separator; JSON quoting keeps a comma inside a string from posing as one.
  return values.length === 1 ? valueKey(values[0]) : values.map(valueKey).join(",");
}

/** Length in code points, as Python's `len` counts a string. */
export function textLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length - 1; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        index += 1;
      }
    }
  }
  return length;
}

/** Sets a key as JSON.parse would: `"__proto__"` becomes a field, not the object's prototype. */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
