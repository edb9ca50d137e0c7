/**
 * `toolscript/analysis` as the type checker sees it (compile/builtin-modules.ts
 * puts it at a virtual path): what programs and skills are checked against.
 * declaration.test.ts checks the implementation (index.ts) against it.
 */
export const ANALYSIS_DECLARATION = `/**
 * Filter, aggregate, transform and validate rows of JSON inside the sandbox, so a
 * program returns a summary instead of the data. Python has the same functions
 * with the same results: \`from toolscript.analysis import aggregate\`.
 * A field is named by a path: "price", or dotted for nested fields,
 * "customer.address.city"; a whole-number segment indexes an array ("items.0.sku").
 * A field a row lacks reads as null. Values compare as JSON: 1 == 1.0, true != 1, "1" != 1.
 */

/** A row of a result: one JSON object. */
export type Row = Record<string, any>;

export type Operator = "==" | "!=" | ">" | ">=" | "<" | "<=" | "in" | "contains";

/** One test on one field: \`{ field: "price", op: ">", value: 10 }\`. */
export interface Condition {
  /** Field path: "price", "customer.country", "items.0.sku". */
  field: string;
  /**
   * \`> >= < <=\` compare two numbers or two strings (by code point); any other pair, null included, fails.
   * \`==\`/\`!=\`: JSON equality. \`in\`: one of the values of an array.
   * \`contains\`: a substring of a string field, or an element of an array field.
   */
  op: Operator;
  /** Compared with the field; an array for \`in\`. */
  value: unknown;
}

export type MetricOp = "count" | "sum" | "mean" | "median" | "min" | "max" | "stdev";

/** One column of the result: \`{ op: "count" }\` counts rows; the others read \`field\`. */
export interface Metric {
  /** stdev is the sample standard deviation (n - 1), null under two values. */
  op: MetricOp;
  /** Field path; optional for count (then only rows where it is present and not null count). */
  field?: string;
}

export type FieldType = "string" | "number" | "integer" | "boolean" | "object" | "array";

/** What one field must be. Every rule but \`required\` passes a null or missing value. */
export interface FieldRules {
  type?: FieldType | FieldType[];
  /** Present and not null. */
  required?: boolean;
  /** One of these values (JSON equality). */
  enum?: unknown[];
  /** Inclusive bounds of a number; a value that is not a number fails them. */
  min?: number;
  max?: number;
  /** Inclusive bounds of the length of a string (in code points) or an array. */
  minLength?: number;
  maxLength?: number;
  /** A regular expression searched in a string (not anchored); use syntax JavaScript and Python share. */
  pattern?: string;
}

/** One failure: the row's index, the field (as in the schema; null for a row that is not an object), the rule, the value. */
export interface ValidationIssue {
  row: number;
  field: string | null;
  rule: "type" | "required" | "enum" | "min" | "max" | "minLength" | "maxLength" | "pattern";
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

/** A bad argument: \`message\` names where (\`conditions[1].op\`, \`metrics.total\`, \`rows[3]\`) and what is wrong. */
export declare class AnalysisError extends Error {
  readonly code: "analysis.invalid_input";
  readonly data: { path: string };
}

/**
 * The rows passing every condition (\`"and"\`, the default) or at least one (\`"or"\`), in order, the same objects.
 * No conditions: "and" keeps every row, "or" none.
 * @example filter(orders, [{ field: "total", op: ">", value: 100 }, { field: "status", op: "in", value: ["paid", "sent"] }])
 */
export declare function filter<T extends object>(rows: readonly T[], conditions: readonly Condition[], logic?: "and" | "or"): T[];

/**
 * One row per group, in the order groups are first seen: the group's fields (keyed by the path as written,
 * null where missing) then each metric by its name. \`groupBy\` null or [] makes one group of every row
 * (returned even for no rows). Null and missing values are skipped by every metric but plain count; a value of
 * the wrong kind throws AnalysisError naming its row (sum/mean/median/stdev need numbers, min/max numbers or
 * strings). Empty: count and sum 0, the others null.
 * @example aggregate(orders, "customer.country", { n: { op: "count" }, revenue: { op: "sum", field: "total" } })
 */
export declare function aggregate(
  rows: readonly object[],
  groupBy?: string | readonly string[] | null,
  metrics?: Readonly<Record<string, Metric>> | null,
): Row[];

/**
 * New rows with only the \`select\`ed fields (paths, in that order, keyed by the path as written; null where
 * missing), or every top-level field when \`select\` is null; then keys renamed (\`{ old: new }\`). Values are not copied.
 * @example transform(orders, ["id", "customer.name"], { "customer.name": "name" })
 */
export declare function transform(
  rows: readonly object[],
  select?: readonly string[] | null,
  rename?: Readonly<Record<string, string>> | null,
): Row[];

/**
 * Checks every row against \`schema\` ({ field path: rules }) and says what failed where. Throws only for a bad schema.
 * @example validate(orders, { id: { type: "integer", required: true }, email: { type: "string", pattern: "@" } })
 */
export declare function validate(rows: readonly unknown[], schema: Readonly<Record<string, FieldRules>>): ValidationReport;

export declare const OPERATORS: readonly Operator[];
export declare const METRIC_OPS: readonly MetricOp[];
export declare const RULES: readonly ValidationIssue["rule"][];
export declare const TYPES: readonly FieldType[];
`;

export { ANALYSIS_TYPE_EXPORTS } from "./type-exports.ts";
