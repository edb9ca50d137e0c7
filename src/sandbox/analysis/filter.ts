import { AnalysisError } from "./errors.ts";
import { at, checkKeys, checkRows, type FieldPath, MISSING, parsePath, read } from "./paths.ts";
import { compare, describe, equal, isRecord, show } from "./values.ts";

export const OPERATORS = Object.freeze(["==", "!=", ">", ">=", "<", "<=", "in", "contains"] as const);
export type Operator = (typeof OPERATORS)[number];

/** One test on one field of a row. */
export interface Condition {
  /** Field path: `"price"`, `"customer.country"`, `"items.0.sku"`. */
  field: string;
  op: Operator;
  /** What the field is compared with; an array for `in`. */
  value: unknown;
}

interface Checked {
  path: FieldPath;
  op: Operator;
  value: unknown;
}

function checkCondition(condition: unknown, where: string): Checked {
  if (!isRecord(condition))
    throw new AnalysisError(where, `expected an object {field, op, value}, got ${describe(condition)}`);
  checkKeys(condition, ["field", "op", "value"], where);
  for (const key of ["field", "op", "value"]) {
    if (!Object.hasOwn(condition, key) || condition[key] === undefined)
      throw new AnalysisError(at(where, key), "is required");
  }
  const path = parsePath(condition.field, at(where, "field"));
  const op = condition.op;
  if (typeof op !== "string" || !(OPERATORS as readonly string[]).includes(op)) {
    throw new AnalysisError(
      at(where, "op"),
      `unknown operator ${show(op)}; expected one of ${OPERATORS.join(", ")}`,
    );
  }
  if (op === "in" && !Array.isArray(condition.value))
    throw new AnalysisError(
      at(where, "value"),
      `operator "in" needs an array, got ${describe(condition.value)}`,
    );
  return { path, op: op as Operator, value: condition.value };
}

/** Whether `actual` (null when the row lacks the field) passes `op value`. */
function passes(op: Operator, actual: unknown, value: unknown): boolean {
  switch (op) {
    case "==":
      return equal(actual, value);
    case "!=":
      return !equal(actual, value);
    case "in":
      return (value as unknown[]).some((item) => equal(actual, item));
    case "contains":
      if (typeof actual === "string") return typeof value === "string" && actual.includes(value);
      return Array.isArray(actual) && actual.some((item) => equal(item, value));
    default: {
      const order = compare(actual, value);
      if (order === undefined) return false;
      if (op === ">") return order > 0;
      if (op === ">=") return order >= 0;
      if (op === "<") return order < 0;
      return order <= 0;
    }
  }
}

/**
 * The rows that pass every condition (`logic: "and"`) or at least one
 * (`"or"`), in their order, the same objects. A field a row lacks reads as
 * null. `> >= < <=` compare two numbers or two strings (by code point); any
 * other pair, null included, does not pass. `==` is JSON equality (`1 == 1.0`,
 * `true != 1`, `"1" != 1`). `contains`: a substring of a string field, or an
 * element of an array field. No conditions: "and" keeps every row, "or" none.
 */
export function filter<Row extends object>(
  rows: readonly Row[],
  conditions: readonly Condition[],
  logic: "and" | "or" = "and",
): Row[] {
  checkRows(rows);
  if (!Array.isArray(conditions))
    throw new AnalysisError(
      "conditions",
      `expected an array of {field, op, value}, got ${describe(conditions)}`,
    );
  const checked = conditions.map((condition, index) => checkCondition(condition, at("conditions", index)));
  if (logic !== "and" && logic !== "or")
    throw new AnalysisError("logic", `expected "and" or "or", got ${describe(logic)}`);
  const any = logic === "or";
  return rows.filter((row) => {
    for (const condition of checked) {
      const value = read(row, condition.path);
      if (passes(condition.op, value === MISSING ? null : value, condition.value) === any) return any;
    }
    return !any;
  });
}
