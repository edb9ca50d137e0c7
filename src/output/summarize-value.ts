/** Nesting levels described field by field; deeper values only by type. */
const MAX_DEPTH = 4;
/** Fields described per object shape; the rest are counted. */
const MAX_FIELDS = 60;
/** Distinct strings tracked per field before reporting "more than". */
const MAX_DISTINCT = 1000;
const MAX_EXAMPLES = 3;
const EXAMPLE_CHARS = 40;
const PREVIEW_CHARS = 120;

type JsonType = "null" | "boolean" | "number" | "string" | "array" | "object";

/** Everything seen at one position of the data (a field, the items of an array, ...). */
interface Shape {
  count: number;
  types: Partial<Record<JsonType, number>>;
  number?: { min: number; max: number; sum: number; integers: boolean };
  string?: {
    minLength: number;
    maxLength: number;
    distinct: Set<string>;
    overflow: boolean;
    examples: string[];
  };
  boolean?: { true: number; false: number };
  array?: { minLength: number; maxLength: number; items: Shape };
  object?: { fields: Map<string, Shape>; extraFields: Set<string> };
}

/**
 * The shape of `value` as JSON: types, lengths and counts; min, max and mean of
 * numbers; distinct counts and a few examples of strings; fields of objects with
 * how often each is present. What `summarize` returns when data is too big to show.
 */
export function summarizeValue(value: unknown): Record<string, unknown> {
  const shape = newShape();
  observe(shape, value, 0);
  return describe(shape, true);
}

function newShape(): Shape {
  return { count: 0, types: {} };
}

function typeOf(value: unknown): JsonType {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  if (type === "boolean" || type === "number" || type === "string") return type;
  return "object";
}

function observe(shape: Shape, value: unknown, depth: number): void {
  const type = typeOf(value);
  shape.count++;
  shape.types[type] = (shape.types[type] ?? 0) + 1;
  switch (type) {
    case "number":
      observeNumber(shape, value as number);
      break;
    case "string":
      observeString(shape, value as string);
      break;
    case "boolean":
      shape.boolean ??= { true: 0, false: 0 };
      shape.boolean[value ? "true" : "false"]++;
      break;
    case "array": {
      const items = value as unknown[];
      shape.array ??= { minLength: items.length, maxLength: items.length, items: newShape() };
      shape.array.minLength = Math.min(shape.array.minLength, items.length);
      shape.array.maxLength = Math.max(shape.array.maxLength, items.length);
      if (depth < MAX_DEPTH) for (const item of items) observe(shape.array.items, item, depth + 1);
      break;
    }
    case "object": {
      shape.object ??= { fields: new Map(), extraFields: new Set() };
      if (depth >= MAX_DEPTH) break;
      for (const [key, child] of Object.entries(value as object)) {
        let field = shape.object.fields.get(key);
        if (!field) {
          if (shape.object.fields.size >= MAX_FIELDS) {
            if (shape.object.extraFields.size < MAX_DISTINCT) shape.object.extraFields.add(key);
            continue;
          }
          field = newShape();
          shape.object.fields.set(key, field);
        }
        observe(field, child, depth + 1);
      }
      break;
    }
    default:
      break;
  }
}

function observeNumber(shape: Shape, value: number): void {
  if (!shape.number) {
    shape.number = { min: value, max: value, sum: 0, integers: true };
  }
  shape.number.min = Math.min(shape.number.min, value);
  shape.number.max = Math.max(shape.number.max, value);
  shape.number.sum += value;
  if (!Number.isInteger(value)) shape.number.integers = false;
}

function observeString(shape: Shape, value: string): void {
  if (!shape.string) {
    shape.string = {
      minLength: value.length,
      maxLength: value.length,
      distinct: new Set(),
      overflow: false,
      examples: [],
    };
  }
  const stats = shape.string;
  stats.minLength = Math.min(stats.minLength, value.length);
  stats.maxLength = Math.max(stats.maxLength, value.length);
  if (stats.distinct.has(value)) return;
  if (stats.distinct.size < MAX_DISTINCT) stats.distinct.add(value);
  else stats.overflow = true;
  if (stats.examples.length < MAX_EXAMPLES) {
    stats.examples.push(value.length > EXAMPLE_CHARS ? `${value.slice(0, EXAMPLE_CHARS)}…` : value);
  }
}

/** `single`: the shape holds one value (the top level), so lengths and values are exact. */
function describe(shape: Shape, single: boolean): Record<string, unknown> {
  const types = Object.keys(shape.types) as JsonType[];
  const out: Record<string, unknown> =
    types.length === 1 ? { type: types[0] } : { types: { ...shape.types } };
  if (shape.number) Object.assign(out, describeNumbers(shape.number, shape.types.number ?? 0, single));
  if (shape.string) Object.assign(out, describeStrings(shape.string, single));
  if (shape.boolean) out.booleans = { ...shape.boolean };
  if (shape.array) {
    const { minLength, maxLength, items } = shape.array;
    if (minLength === maxLength) out.length = minLength;
    else out.length = { min: minLength, max: maxLength };
    if (items.count > 0) out.items = describe(items, false);
  }
  if (shape.object) {
    const fields: Record<string, unknown> = {};
    const objects = shape.types.object ?? 0;
    for (const [key, field] of shape.object.fields) {
      const described = describe(field, single && objects === 1);
      // Optional fields say how often they appear.
      if (!single && field.count < objects) described.present = field.count;
      fields[key] = described;
    }
    out.fields = fields;
    if (shape.object.extraFields.size > 0) {
      out.moreFields = shape.object.extraFields.size;
    }
  }
  return out;
}

function describeNumbers(
  stats: NonNullable<Shape["number"]>,
  count: number,
  single: boolean,
): Record<string, unknown> {
  if (single && count === 1) return { value: stats.min };
  const mean = stats.sum / count;
  return {
    min: stats.min,
    max: stats.max,
    mean: stats.integers && Number.isInteger(mean) ? mean : Number(mean.toPrecision(6)),
    ...(stats.integers && { integers: true }),
  };
}

function describeStrings(stats: NonNullable<Shape["string"]>, single: boolean): Record<string, unknown> {
  const [first] = stats.distinct;
  if (single && first !== undefined) {
    return {
      length: first.length,
      lines: first.split("\n").length,
      preview: first.length > PREVIEW_CHARS ? `${first.slice(0, PREVIEW_CHARS)}…` : first,
    };
  }
  return {
    distinct: stats.overflow ? `more than ${MAX_DISTINCT}` : stats.distinct.size,
    length:
      stats.minLength === stats.maxLength ? stats.minLength : { min: stats.minLength, max: stats.maxLength },
    examples: stats.examples,
  };
}
