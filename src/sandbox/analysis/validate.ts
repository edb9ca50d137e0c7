import { AnalysisError } from "./errors.ts";
import { at, checkKeys, type FieldPath, MISSING, parsePath, read } from "./paths.ts";
import { describe, equal, isNumber, isRecord, show, textLength } from "./values.ts";

export const RULES = Object.freeze([
  "type",
  "required",
  "enum",
  "min",
  "max",
  "minLength",
  "maxLength",
  "pattern",
] as const);
export const TYPES = Object.freeze(["string", "number", "integer", "boolean", "object", "array"] as const);
export type FieldType = (typeof TYPES)[number];

/** What one field must be. Every rule but `required` passes a null or missing value. */
export interface FieldRules {
  type?: FieldType | FieldType[];
  /** Present and not null. */
  required?: boolean;
  /** One of these values (JSON equality). */
  enum?: unknown[];
  /** Bounds of a number, inclusive; a value that is not a number fails them. */
  min?: number;
  max?: number;
  /** Bounds of the length of a string (in code points) or an array, inclusive. */
  minLength?: number;
  maxLength?: number;
  /** A regular expression searched in a string (not anchored: use ^ and $). */
  pattern?: string;
}

/** One failure: which row (index in `rows`), which field (path as in the schema, null for the row itself), which rule, the value. */
export interface ValidationIssue {
  row: number;
  field: string | null;
  rule: string;
  message: string;
  value: unknown;
}

export interface ValidationReport {
  valid: boolean;
  /** Rows checked. */
  checked: number;
  /** Rows with at least one failure. */
  invalidRows: number;
  /** In row order, then schema order; one per field and row (its first failing rule). */
  errors: ValidationIssue[];
}

interface CheckedField {
  path: FieldPath;
  types: FieldType[] | undefined;
  required: boolean;
  allowed: unknown[] | undefined;
  min: number | undefined;
  max: number | undefined;
  minLength: number | undefined;
  maxLength: number | undefined;
  pattern: { source: string; regex: RegExp } | undefined;
}

function numberRule(
  rules: Record<string, unknown>,
  key: string,
  where: string,
  whole: boolean,
): number | undefined {
  const value = rules[key];
  if (value === undefined) return undefined;
  if (!isNumber(value) || (whole && (!Number.isInteger(value) || value < 0))) {
    const wanted = whole ? "a non-negative integer" : "a number";
    throw new AnalysisError(at(where, key), `expected ${wanted}, got ${describe(value)}`);
  }
  return value;
}

function checkTypes(value: unknown, where: string): FieldType[] | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw new AnalysisError(where, "expected a type or a non-empty array of types");
  for (const type of list) {
    if (typeof type !== "string" || !(TYPES as readonly string[]).includes(type))
      throw new AnalysisError(where, `unknown type ${show(type)}; expected one of ${TYPES.join(", ")}`);
  }
  return list as FieldType[];
}

function checkField(field: string, rules: unknown): CheckedField {
  const where = at("schema", field);
  const path = parsePath(field, where);
  if (!isRecord(rules))
    throw new AnalysisError(
      where,
      `expected an object of rules like {"type": "number"}, got ${describe(rules)}`,
    );
  checkKeys(rules, RULES, where, "rule");
  if (rules.required !== undefined && typeof rules.required !== "boolean")
    throw new AnalysisError(at(where, "required"), `expected true or false, got ${describe(rules.required)}`);
  if (rules.enum !== undefined && !Array.isArray(rules.enum))
    throw new AnalysisError(
      at(where, "enum"),
      `expected an array of allowed values, got ${describe(rules.enum)}`,
    );
  let pattern: CheckedField["pattern"];
  if (rules.pattern !== undefined) {
    if (typeof rules.pattern !== "string")
      throw new AnalysisError(
        at(where, "pattern"),
        `expected a regular expression, got ${describe(rules.pattern)}`,
      );
    try {
      pattern = { source: rules.pattern, regex: new RegExp(rules.pattern, "u") };
    } catch (error) {
      throw new AnalysisError(at(where, "pattern"), `invalid regular expression ${show(rules.pattern)}`, {
        cause: error,
      });
    }
  }
  return {
    path,
    types: checkTypes(rules.type, at(where, "type")),
    required: rules.required === true,
    allowed: rules.enum as unknown[] | undefined,
    min: numberRule(rules, "min", where, false),
    max: numberRule(rules, "max", where, false),
    minLength: numberRule(rules, "minLength", where, true),
    maxLength: numberRule(rules, "maxLength", where, true),
    pattern,
  };
}

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case "integer":
      return isNumber(value) && Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    default:
      return typeof value === type;
  }
}

/** The first rule `value` fails, with its message; undefined when it passes them all. */
function firstFailure(field: CheckedField, value: unknown): [string, string] | undefined {
  if (value === null) return field.required ? ["required", "is required"] : undefined;
  if (field.types && !field.types.some((type) => hasType(value, type)))
    return ["type", `expected ${field.types.join(" or ")}, got ${describe(value)}`];
  if (field.allowed && !field.allowed.some((allowed) => equal(value, allowed)))
    return ["enum", `expected one of ${show(field.allowed)}, got ${describe(value)}`];
  for (const [rule, bound] of [
    ["min", field.min],
    ["max", field.max],
  ] as const) {
    if (bound === undefined) continue;
    if (!isNumber(value)) return [rule, `expected a number, got ${describe(value)}`];
    if (rule === "min" ? value < bound : value > bound)
      return [rule, `must be ${rule === "min" ? ">=" : "<="} ${show(bound)}, got ${show(value)}`];
  }
  for (const [rule, bound] of [
    ["minLength", field.minLength],
    ["maxLength", field.maxLength],
  ] as const) {
    if (bound === undefined) continue;
    const length =
      typeof value === "string" ? textLength(value) : Array.isArray(value) ? value.length : undefined;
    if (length === undefined) return [rule, `expected a string or an array, got ${describe(value)}`];
    if (rule === "minLength" ? length < bound : length > bound)
      return [rule, `length must be ${rule === "minLength" ? ">=" : "<="} ${bound}, got ${length}`];
  }
  if (field.pattern) {
    if (typeof value !== "string") return ["pattern", `expected a string, got ${describe(value)}`];
    if (!field.pattern.regex.test(value))
      return ["pattern", `does not match the pattern ${show(field.pattern.source)}`];
  }
  return undefined;
}

/**
 * Checks every row against `schema` ({field path: rules}) and says what
 * failed where: `{ valid, checked, invalidRows, errors: [{ row, field, rule,
 * message, value }] }`. A row that is not an object fails rule "type" with
 * field null. Never throws for bad rows; throws AnalysisError for a bad schema.
 */
export function validate(
  rows: readonly unknown[],
  schema: Readonly<Record<string, FieldRules>>,
): ValidationReport {
  if (!Array.isArray(rows))
    throw new AnalysisError("rows", `expected an array of objects, got ${describe(rows)}`);
  if (!isRecord(schema))
    throw new AnalysisError("schema", `expected an object of {field: rules}, got ${describe(schema)}`);
  const fields = Object.keys(schema).map((field) => checkField(field, schema[field]));
  const errors: ValidationIssue[] = [];
  let invalidRows = 0;
  rows.forEach((row, index) => {
    const before = errors.length;
    if (!isRecord(row)) {
      errors.push({
        row: index,
        field: null,
        rule: "type",
        message: `expected an object, got ${describe(row)}`,
        value: row,
      });
    } else {
      for (const field of fields) {
        const found = read(row, field.path);
        const value = found === MISSING ? null : found;
        const failure = firstFailure(field, value);
        if (failure)
          errors.push({ row: index, field: field.path.field, rule: failure[0], message: failure[1], value });
      }
    }
    if (errors.length > before) invalidRows += 1;
  });
  return { valid: errors.length === 0, checked: rows.length, invalidRows, errors };
}
