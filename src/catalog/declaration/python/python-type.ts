import { isRecord } from "../json.ts";
import { pythonString } from "./python-text.ts";

/**
 * A rendered Python type. Python's `|` binds loosest and subscripts take any expression,
 * so no parentheses are ever needed: only union members and literal values are kept,
 * to flatten unions and merge `Literal[...]`s.
 */
export interface PyType {
  readonly text: string;
  /** Members of a union, flattened. */
  readonly parts?: readonly PyType[];
  /** Values of a `Literal[...]`, rendered. */
  readonly literals?: readonly string[];
}

export const ANY: PyType = { text: "Any" };
export const NEVER: PyType = { text: "Never" };
export const NONE: PyType = { text: "None" };

export function named(text: string): PyType {
  return { text };
}

function literal(values: readonly string[]): PyType {
  return { text: `Literal[${values.join(", ")}]`, literals: values };
}

/**
 * The type of one JSON value (`const`, an `enum` member): `Literal[...]` for strings,
 * integers and booleans (what `Literal` allows), `None`, else the value's general type.
 */
export function valueType(value: unknown): PyType {
  if (typeof value === "string") return literal([pythonString(value)]);
  if (typeof value === "boolean") return literal([value ? "True" : "False"]);
  if (typeof value === "number") {
    return Number.isSafeInteger(value) ? literal([String(value)]) : named("float");
  }
  if (value === null) return NONE;
  if (Array.isArray(value)) return named("list[Any]");
  if (isRecord(value)) return named("dict[str, Any]");
  return ANY;
}

/** `A | B`, flattened and deduplicated, literals merged into one `Literal[...]`; `Any` absorbs, `Never` disappears. */
export function unionOf(parts: readonly PyType[]): PyType {
  const flat: PyType[] = [];
  const literals: string[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    for (const member of part.parts ?? [part]) {
      if (member.text === "Any") return ANY;
      if (member.text === "Never" || seen.has(member.text)) continue;
      seen.add(member.text);
      if (member.literals) {
        for (const value of member.literals) if (!literals.includes(value)) literals.push(value);
      } else flat.push(member);
    }
  }
  // One Literal first, then `None` last: `Literal["a", "b"] | str | None` reads best.
  const members = [
    ...(literals.length > 0 ? [literal(literals)] : []),
    ...flat.filter((m) => m.text !== "None"),
    ...flat.filter((m) => m.text === "None"),
  ];
  if (members.length === 0) return NEVER;
  if (members.length === 1) return members[0]!;
  return { text: members.map((m) => m.text).join(" | "), parts: members };
}

export function listOf(element: PyType): PyType {
  return named(`list[${element.text}]`);
}
