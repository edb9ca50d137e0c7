/** How `console` shows a value: strings as they are, objects as JSON with the gaps JSON leaves filled. */
import { ErrorClass, is, MapClass, SetClass, StringOf, stringify, WeakSetClass } from "./intrinsics.ts";

type Described = { name?: unknown; toString(): string };

function inspectReplacer(seen: WeakSet<object>): (key: string, value: unknown) => unknown {
  return (key, value) => {
    switch (typeof value) {
      case "bigint":
        return StringOf(value) + "n";
      case "function":
        return "[Function: " + ((value as Described).name || "(anonymous)") + "]";
      case "symbol":
        return value.toString();
      case "undefined":
        return key === "" ? "undefined" : undefined;
    }
    if (value === null || typeof value !== "object") return value;
    if (seen.has(value)) return "[Circular]";
    seen.add(value);
    if (value instanceof ErrorClass) return value.name + ": " + value.message;
    if (value instanceof MapClass) return { "[Map]": [...value.entries()] };
    if (value instanceof SetClass) return { "[Set]": [...value.values()] };
    return value;
  };
}

export function inspect(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      return is(value, -0) ? "-0" : StringOf(value);
    case "bigint":
      return StringOf(value) + "n";
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return "undefined";
    case "symbol":
      return value.toString();
    case "function":
      return "[Function: " + ((value as Described).name || "(anonymous)") + "]";
  }
  if (value === null) return "null";
  try {
    if (value instanceof ErrorClass)
      return typeof value.stack === "string" ? value.stack : value.name + ": " + value.message;
    const text = stringify(value, inspectReplacer(new WeakSetClass())) as string | undefined;
    return text === undefined ? StringOf(value) : text;
  } catch {
    return "[unprintable object]";
  }
}
