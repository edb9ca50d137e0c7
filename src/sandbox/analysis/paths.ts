/**
 * Field paths: `"price"`, or dotted for nested fields, `"customer.address.city"`;
 * a segment that is a whole number also indexes an array (`"items.0.sku"`).
 * A key that itself contains a dot cannot be reached by a path (rename it first).
 * The places named in messages are written the same way in both languages:
 * `metrics.total`, `rows[3]["unit price"]`.
 */
import { AnalysisError } from "./errors.ts";
import { describe, isRecord } from "./values.ts";

/** What a field path reads on a row that does not have it (told apart from `null` where it matters). */
export const MISSING: unique symbol = Symbol("missing");
export type Read = unknown | typeof MISSING;

export interface FieldPath {
  /** As written: also the key of the field in results. */
  field: string;
  keys: string[];
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INDEX = /^(0|[1-9][0-9]*)$/;

/** `base.key`, or `base["key"]` when the key is not an identifier. */
export function at(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  return IDENTIFIER.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** Where a field of a row is: `rows[3].customer.name`. */
export function fieldAt(row: number, path: FieldPath): string {
  let where = at("rows", row);
  for (const key of path.keys) where = at(where, key);
  return where;
}

export function parsePath(value: unknown, where: string): FieldPath {
  if (typeof value !== "string") {
    throw new AnalysisError(
      where,
      `expected a field name (dotted for nested fields), got ${describe(value)}`,
    );
  }
  if (value === "") throw new AnalysisError(where, "expected a field name, got an empty string");
  const keys = value.split(".");
  if (keys.includes(""))
    throw new AnalysisError(where, `empty key in the field path ${JSON.stringify(value)}`);
  return { field: value, keys };
}

/** The value at `path` in `row`, or MISSING. Only own keys count: `constructor` is not a field of `{}`. */
export function read(row: unknown, path: FieldPath): Read {
  let current: unknown = row;
  for (const key of path.keys) {
    if (isRecord(current)) {
      if (!Object.hasOwn(current, key)) return MISSING;
      current = current[key];
    } else if (Array.isArray(current) && INDEX.test(key) && Number(key) < current.length) {
      current = current[Number(key)];
    } else {
      return MISSING;
    }
  }
  return current === undefined ? MISSING : current;
}

/** Checks `rows` is an array of objects; `rows[i]` names the first that is not. */
export function checkRows(rows: unknown): asserts rows is Record<string, unknown>[] {
  if (!Array.isArray(rows))
    throw new AnalysisError("rows", `expected an array of objects, got ${describe(rows)}`);
  for (let index = 0; index < rows.length; index += 1) {
    if (!isRecord(rows[index]))
      throw new AnalysisError(at("rows", index), `expected an object, got ${describe(rows[index])}`);
  }
}

/** Keys of an options object that are not among `known`: a misspelt key is an error, never ignored. */
export function checkKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  where: string,
  noun = "key",
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key))
      throw new AnalysisError(at(where, key), `unknown ${noun}; expected ${known.join(", ")}`);
  }
}
