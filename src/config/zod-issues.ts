import type { z } from "zod";
import type { ConfigIssue, PathSegment } from "./issues.ts";
import { formatPath } from "./issues.ts";
import { suggestKey } from "./suggest.ts";

/**
 * Turns zod's issues into config issues with short messages
 * (`expected string, received number`) and one issue per unknown key, at the key's
 * own path, with a "did you mean" hint when a known key is close.
 */
export class ZodIssueCollector {
  // Known keys of each strict object that reported unknown keys, by formatted path.
  readonly #knownKeys = new Map<string, string[]>();

  /** Per-parse error map, passed as `schema.safeParse(value, { error: collector.errorMap })`. */
  readonly errorMap = (issue: z.core.$ZodRawIssue): string | undefined => {
    switch (issue.code) {
      case "invalid_type":
        return invalidTypeMessage(issue.expected, issue.input);
      case "too_small":
        return boundMessage("small", issue.origin, issue.minimum, issue.inclusive ?? true);
      case "too_big":
        return boundMessage("big", issue.origin, issue.maximum, issue.inclusive ?? true);
      case "invalid_value":
        return issue.values.length === 1
          ? `expected ${JSON.stringify(issue.values[0])}`
          : `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
      case "invalid_key":
        return issue.issues[0]?.message;
      case "unrecognized_keys":
        this.#knownKeys.set(formatPath(toSegments(issue.path)), shapeKeys(issue.inst));
        return undefined;
      default:
        return undefined;
    }
  };

  toConfigIssues(issues: readonly z.core.$ZodIssue[]): ConfigIssue[] {
    const out: ConfigIssue[] = [];
    for (const issue of issues) {
      const segments = toSegments(issue.path);
      if (issue.code !== "unrecognized_keys") {
        out.push({ path: formatPath(segments), message: issue.message });
        continue;
      }
      const known = this.#knownKeys.get(formatPath(segments)) ?? [];
      for (const key of issue.keys) {
        out.push({ path: formatPath([...segments, key]), message: unknownKeyMessage(key, known) });
      }
    }
    return out;
  }
}

export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const suggestion = suggestKey(key, known);
  if (suggestion !== undefined) return `unknown key, did you mean "${suggestion}"?`;
  return known.length > 0 ? `unknown key (allowed: ${known.join(", ")})` : "unknown key";
}

function toSegments(path: readonly PropertyKey[] | undefined): PathSegment[] {
  return (path ?? []).map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
}

const TYPE_NAMES: Record<string, string> = { int: "integer", record: "object", map: "object" };

function invalidTypeMessage(expected: string, input: unknown): string {
  if (input === undefined) return "required";
  if (expected === "int" && typeof input === "number") return `expected an integer, received ${input}`;
  return `expected ${TYPE_NAMES[expected] ?? expected}, received ${describeType(input)}`;
}

function describeType(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "array";
  return typeof input;
}

function boundMessage(
  side: "small" | "big",
  origin: string,
  bound: unknown,
  inclusive: boolean,
): string | undefined {
  const limit = String(bound);
  if (origin === "string") {
    if (side === "small" && limit === "1") return "must not be empty";
    return side === "small" ? `must be at least ${limit} characters` : `must be at most ${limit} characters`;
  }
  if (origin === "array" || origin === "set") {
    if (side === "small" && limit === "1") return "must not be empty";
    return side === "small" ? `must have at least ${limit} items` : `must have at most ${limit} items`;
  }
  if (origin === "number" || origin === "int" || origin === "bigint") {
    if (side === "small") return inclusive ? `must be >= ${limit}` : `must be > ${limit}`;
    return inclusive ? `must be <= ${limit}` : `must be < ${limit}`;
  }
  return undefined;
}

/** The declared keys of an object schema, read from its definition. */
function shapeKeys(inst: unknown): string[] {
  const shape = (inst as { _zod?: { def?: { shape?: unknown } } } | undefined)?._zod?.def?.shape;
  return typeof shape === "object" && shape !== null ? Object.keys(shape) : [];
}
