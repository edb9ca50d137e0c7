import { renderJsDoc, schemaDocLines } from "./jsdoc.ts";
import { isRecord } from "./json.ts";
import { formatPropertyKey, renderLiteral } from "./literal.ts";
import type { RefResolver } from "./refs.ts";
import {
  arrayOf,
  intersectionOf,
  NEVER,
  NULL,
  objectLiteral,
  primary,
  type TypeExpr,
  UNKNOWN,
  unionOf,
} from "./type-expr.ts";

/** Deeper schemas than this render as `unknown`: no real tool needs it, and it bounds the work. */
export const MAX_SCHEMA_DEPTH = 32;
/** An object type without comments stays on one line when it fits in this many characters. */
export const INLINE_OBJECT_MAX_CHARS = 80;

const INDENT = "  ";

interface State {
  readonly refs: RefResolver;
  readonly depth: number;
  /** Not nested in an object or array type: see `RefResolver.refName`. */
  readonly direct: boolean;
  /** Schemas on the current path: a cyclic in-memory schema must not loop forever. */
  readonly path: ReadonlySet<object>;
}

/** Resolves no reference: every `$ref` renders as `unknown`. */
export const NO_REFS: RefResolver = { refName: () => undefined };

/** The TypeScript type of a JSON Schema (draft-07 / 2020-12, plus OpenAPI `nullable`). */
export function schemaToType(schema: unknown, refs: RefResolver = NO_REFS): TypeExpr {
  return convert(schema, { refs, depth: 0, direct: true, path: new Set() });
}

function nested(state: State, direct: boolean, schema: object): State {
  return { refs: state.refs, depth: state.depth + 1, direct, path: new Set([...state.path, schema]) };
}

function convert(schema: unknown, state: State): TypeExpr {
  if (schema === true) return UNKNOWN;
  if (schema === false) return NEVER;
  if (!isRecord(schema) || state.depth > MAX_SCHEMA_DEPTH || state.path.has(schema)) return UNKNOWN;
  const type = convertRecord(schema, state);
  return schema.nullable === true ? unionOf([type, NULL]) : type;
}

function convertRecord(schema: Record<string, unknown>, state: State): TypeExpr {
  if (typeof schema.$ref === "string") {
    // Siblings of `$ref` are mostly annotations; ignoring the rest is the draft-07 reading.
    const name = state.refs.refName(schema.$ref, state.direct);
    return name === undefined ? UNKNOWN : primary(name, true);
  }
  if ("const" in schema) return primary(renderLiteral(schema.const));
  if (Array.isArray(schema.enum)) return unionOf(schema.enum.map((value) => primary(renderLiteral(value))));
  const parts: TypeExpr[] = [];
  const base = convertTyped(schema, state);
  if (base) parts.push(base);
  const same = nested(state, state.direct, schema);
  if (Array.isArray(schema.allOf)) for (const member of schema.allOf) parts.push(convert(member, same));
  for (const key of ["anyOf", "oneOf"]) {
    const members = schema[key];
    if (Array.isArray(members)) parts.push(unionOf(members.map((member) => convert(member, same))));
  }
  // `not`, `if`/`then`/`else` and unknown keywords only narrow a type: leaving them out is safe.
  return parts.length === 0 ? UNKNOWN : intersectionOf(parts);
}

const OBJECT_KEYWORDS = ["properties", "additionalProperties", "patternProperties", "required"];
const ARRAY_KEYWORDS = ["items", "prefixItems", "additionalItems"];

function convertTyped(schema: Record<string, unknown>, state: State): TypeExpr | undefined {
  const { type } = schema;
  if (Array.isArray(type)) {
    return unionOf(type.map((t) => (typeof t === "string" ? forTypeName(t, schema, state) : UNKNOWN)));
  }
  if (typeof type === "string") return forTypeName(type, schema, state);
  if (OBJECT_KEYWORDS.some((key) => key in schema)) return objectType(schema, state);
  if (ARRAY_KEYWORDS.some((key) => key in schema)) return arrayType(schema, state);
  return undefined;
}

function forTypeName(type: string, schema: Record<string, unknown>, state: State): TypeExpr {
  switch (type) {
    case "string":
    case "boolean":
    case "null":
    case "number":
      return primary(type);
    case "integer":
      return primary("number");
    case "array":
      return arrayType(schema, state);
    case "object":
      return objectType(schema, state);
    default:
      return UNKNOWN;
  }
}

function arrayType(schema: Record<string, unknown>, state: State): TypeExpr {
  const inner = nested(state, false, schema);
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : schema.items;
  if (!Array.isArray(prefix)) {
    return schema.items === undefined ? arrayOf(UNKNOWN) : arrayOf(convert(schema.items, inner));
  }
  const rest = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
  const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
  const elements = prefix.map((item) => convert(item, inner));
  const texts = elements.map((element, i) => {
    if (i < minItems) return element.text;
    return element.prec < 2 ? `(${element.text})?` : `${element.text}?`;
  });
  let hasRef = elements.some((element) => element.hasRef);
  if (rest !== false && maxItems > prefix.length) {
    const restType = rest === undefined ? UNKNOWN : convert(rest, inner);
    hasRef ||= restType.hasRef;
    texts.push(`...${arrayOf(restType).text}`);
  }
  return primary(`[${texts.join(", ")}]`, hasRef);
}

interface Member {
  readonly key: string;
  readonly optional: boolean;
  readonly type: TypeExpr;
  readonly doc: readonly string[];
}

function objectType(schema: Record<string, unknown>, state: State): TypeExpr {
  const inner = nested(state, false, schema);
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === "string") : [],
  );
  const members: Member[] = Object.entries(properties).map(([key, sub]) => ({
    key,
    optional: !required.has(key),
    type: convert(sub, inner),
    doc: schemaDocLines(sub),
  }));
  for (const key of required) {
    if (!Object.hasOwn(properties, key)) members.push({ key, optional: false, type: UNKNOWN, doc: [] });
  }
  const index = indexType(schema, inner);
  if (members.length === 0) {
    if (index === undefined)
      return primary(
        schema.additionalProperties === false ? "Record<string, never>" : "Record<string, unknown>",
      );
    // `Record<string, T>` with T naming a type alias that contains this one is a circular alias.
    return index.hasRef
      ? objectLiteral(`{ [key: string]: ${index.text} }`, true)
      : primary(`Record<string, ${index.text}>`);
  }
  const lines = members.map((m) => `${formatPropertyKey(m.key)}${m.optional ? "?" : ""}: ${m.type.text};`);
  const docs = members.map((m) => m.doc);
  if (index !== undefined) {
    lines.push(`[key: string]: ${compatibleIndexType(index, members).text};`);
    docs.push([]);
  }
  const hasRef = members.some((m) => m.type.hasRef) || (index?.hasRef ?? false);
  const inline = `{ ${lines.map((line) => line.slice(0, -1)).join("; ")} }`;
  if (
    docs.every((d) => d.length === 0) &&
    !inline.includes("\n") &&
    inline.length <= INLINE_OBJECT_MAX_CHARS
  ) {
    return objectLiteral(inline, hasRef);
  }
  const body = lines
    .map((line, i) => `${renderJsDoc(docs[i] ?? [], INDENT)}${INDENT}${line.replaceAll("\n", `\n${INDENT}`)}`)
    .join("\n");
  return objectLiteral(`{\n${body}\n}`, hasRef);
}

/** Value type of keys not declared in `properties`, or undefined when the object says nothing about them. */
function indexType(schema: Record<string, unknown>, state: State): TypeExpr | undefined {
  const parts: TypeExpr[] = [];
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== true && extra !== false) {
    const type = convert(extra, state);
    if (type.text !== "unknown") parts.push(type);
  }
  if (isRecord(schema.patternProperties)) {
    for (const sub of Object.values(schema.patternProperties)) parts.push(convert(sub, state));
  }
  return parts.length === 0 ? undefined : unionOf(parts);
}

/** TypeScript requires every property to fit the index signature: fall back to `unknown` when one does not. */
function compatibleIndexType(index: TypeExpr, members: readonly Member[]): TypeExpr {
  if (!members.every((m) => m.type.text === index.text)) return UNKNOWN;
  return members.some((m) => m.optional) ? unionOf([index, primary("undefined")]) : index;
}
