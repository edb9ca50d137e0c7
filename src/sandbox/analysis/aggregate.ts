import { AnalysisError } from "./errors.ts";
import { at, checkKeys, checkRows, type FieldPath, fieldAt, MISSING, parsePath, read } from "./paths.ts";
import { compare, describe, groupKey, isNumber, isRecord, kindOf, put, show } from "./values.ts";

export const METRIC_OPS = Object.freeze(["count", "sum", "mean", "median", "min", "max", "stdev"] as const);
export type MetricOp = (typeof METRIC_OPS)[number];

/** One column of the result: `{ op: "count" }` counts rows, the others read `field`. */
export interface Metric {
  op: MetricOp;
  /** Field path; optional for `count` (then only rows where it is present and not null count). */
  field?: string;
}

interface CheckedMetric {
  name: string;
  op: MetricOp;
  path: FieldPath | undefined;
}

function checkGroupBy(groupBy: unknown): FieldPath[] {
  if (groupBy === null || groupBy === undefined) return [];
  if (typeof groupBy === "string") return [parsePath(groupBy, "group_by")];
  if (!Array.isArray(groupBy))
    throw new AnalysisError(
      "group_by",
      `expected a field name or an array of field names, got ${describe(groupBy)}`,
    );
  const paths = groupBy.map((field, index) => parsePath(field, at("group_by", index)));
  paths.forEach((path, index) => {
    if (paths.findIndex((other) => other.field === path.field) < index)
      throw new AnalysisError(at("group_by", index), `${JSON.stringify(path.field)} is named twice`);
  });
  return paths;
}

function checkMetrics(metrics: unknown, groups: readonly FieldPath[]): CheckedMetric[] {
  if (metrics === null || metrics === undefined) return [];
  if (!isRecord(metrics))
    throw new AnalysisError("metrics", `expected an object of {name: {op, field}}, got ${describe(metrics)}`);
  return Object.keys(metrics).map((name) => {
    const where = at("metrics", name);
    const metric = metrics[name];
    if (!isRecord(metric))
      throw new AnalysisError(where, `expected an object {op, field}, got ${describe(metric)}`);
    checkKeys(metric, ["op", "field"], where);
    if (metric.op === undefined) throw new AnalysisError(at(where, "op"), "is required");
    const op = metric.op;
    if (typeof op !== "string" || !(METRIC_OPS as readonly string[]).includes(op)) {
      throw new AnalysisError(
        at(where, "op"),
        `unknown metric ${show(op)}; expected one of ${METRIC_OPS.join(", ")}`,
      );
    }
    let path: FieldPath | undefined;
    if (metric.field !== undefined && metric.field !== null)
      path = parsePath(metric.field, at(where, "field"));
    else if (op !== "count") throw new AnalysisError(at(where, "field"), `is required for "${op}"`);
    if (groups.some((group) => group.field === name))
      throw new AnalysisError(where, "this name is also a group_by field");
    return { name, op: op as MetricOp, path };
  });
}

interface Group {
  keys: unknown[];
  rows: number[];
}

/** The present, non-null values of the metric's field in the group's rows; non-numbers refused where numbers are due. */
function valuesOf(
  metric: CheckedMetric,
  path: FieldPath,
  group: Group,
  rows: readonly Record<string, unknown>[],
): unknown[] {
  const where = at("metrics", metric.name);
  const numeric = metric.op !== "min" && metric.op !== "max" && metric.op !== "count";
  const values: unknown[] = [];
  let first: string | undefined;
  for (const index of group.rows) {
    const value = read(rows[index], path);
    if (value === MISSING || value === null) continue;
    if (numeric && !isNumber(value)) {
      throw new AnalysisError(
        where,
        `${fieldAt(index, path)}: expected a number, got ${describe(value)} (null and missing values are skipped)`,
      );
    }
    if (metric.op === "min" || metric.op === "max") {
      const kind = kindOf(value);
      if (kind !== "number" && kind !== "string") {
        throw new AnalysisError(
          where,
          `${fieldAt(index, path)}: expected a number or a string, got ${describe(value)}`,
        );
      }
      first ??= kind;
      if (kind !== first)
        throw new AnalysisError(
          where,
          `${fieldAt(index, path)}: expected a ${first} like the values before it, got ${describe(value)}`,
        );
    }
    values.push(value);
  }
  return values;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** One metric over one group. Sums add left to right; stdev is the sample one (n − 1), like Python's statistics.stdev. */
function compute(metric: CheckedMetric, group: Group, rows: readonly Record<string, unknown>[]): unknown {
  if (metric.path === undefined) return group.rows.length;
  const values = valuesOf(metric, metric.path, group, rows);
  const numbers = values as number[];
  switch (metric.op) {
    case "count":
      return values.length;
    case "sum":
      return sum(numbers);
    case "mean":
      return numbers.length === 0 ? null : sum(numbers) / numbers.length;
    case "median": {
      if (numbers.length === 0) return null;
      const sorted = [...numbers].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
    }
    case "stdev": {
      if (numbers.length < 2) return null;
      const mean = sum(numbers) / numbers.length;
      let squares = 0;
      for (const value of numbers) squares += (value - mean) * (value - mean);
      return Math.sqrt(squares / (numbers.length - 1));
    }
    default: {
      let best: unknown = null;
      const sign = metric.op === "min" ? -1 : 1;
      for (const value of values) if (best === null || compare(value, best) === sign) best = value;
      return best;
    }
  }
}

/**
 * One row per group of `groupBy` (a field path or several; null or [] for one
 * group of every row, returned even when there are no rows), in the order
 * groups are first seen. Each result row holds the group's fields (keyed by
 * the path as written, null where missing) then each metric by its name.
 * Null and missing values are skipped by every metric but plain `count`; a
 * value of the wrong kind is an error naming its row. Empty: count and sum 0,
 * the others null; stdev needs two values.
 */
export function aggregate(
  rows: readonly object[],
  groupBy?: string | readonly string[] | null,
  metrics?: Readonly<Record<string, Metric>> | null,
): Record<string, unknown>[] {
  checkRows(rows);
  const groups = checkGroupBy(groupBy);
  const checked = checkMetrics(metrics, groups);
  const byKey = new Map<string, Group>();
  if (groups.length === 0) byKey.set("", { keys: [], rows: [] });
  rows.forEach((row, index) => {
    const keys = groups.map((path) => {
      const value = read(row, path);
      return value === MISSING ? null : value;
    });
    const key = groups.length === 0 ? "" : groupKey(keys);
    let group = byKey.get(key);
    if (group === undefined) {
      group = { keys, rows: [] };
      byKey.set(key, group);
    }
    group.rows.push(index);
  });
  return [...byKey.values()].map((group) => {
    const out: Record<string, unknown> = {};
    groups.forEach((path, index) => {
      put(out, path.field, group.keys[index]);
    });
    for (const metric of checked) put(out, metric.name, compute(metric, group, rows));
    return out;
  });
}
