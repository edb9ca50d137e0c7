import { toIdentifier, toPascalCase } from "../../naming.ts";
import { appendTags, schemaTags } from "../jsdoc.ts";
import { isRecord } from "../json.ts";
import type { NameAllocator } from "../name-allocator.ts";
import type { RefResolver } from "../refs.ts";
import { MAX_SCHEMA_DEPTH } from "../schema-to-type.ts";
import { isPythonName } from "./python-names.ts";
import { commentLines, docstring, pythonString, textLines } from "./python-text.ts";
import { ANY, listOf, NEVER, NONE, named, type PyType, unionOf, valueType } from "./python-type.ts";

/** A property doc this short (one line) goes after the field, else on comment lines above it. */
export const TRAILING_COMMENT_MAX_CHARS = 80;
const INDENT = "    ";

/** Where the classes and aliases a schema needs are declared, in dependency order. */
export interface PythonDeclarations {
  readonly names: NameAllocator;
  readonly blocks: string[];
  /** The fields of each `TypedDict` declared, by class name (a signature is made of the input's). */
  readonly classes: Map<string, { fields: readonly PythonField[]; extra: PyType | undefined }>;
  /** Class text with its name left out → class name, to declare each shape once. */
  readonly shapes: Map<string, string>;
}

/** An empty place to declare into. */
export function pythonDeclarations(names: NameAllocator): PythonDeclarations {
  return { names, blocks: [], classes: new Map(), shapes: new Map() };
}

interface State {
  readonly out: PythonDeclarations;
  readonly refs: RefResolver;
  readonly depth: number;
  /** Not nested in a class or a container: see `RefResolver.refName`. */
  readonly direct: boolean;
  readonly path: ReadonlySet<object>;
  /** The exact class name for an object at this node (a named document), else undefined. */
  readonly name: string | undefined;
  /** What a class declared for this node is called, before de-duplication (`GetSumInputOptions`). */
  readonly hint: string;
}

/** Doc lines of a schema: its description, then its constraint tags (`@default 3 @minimum 1`). */
export function pythonDocLines(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const lines = typeof schema.description === "string" ? textLines(schema.description) : [];
  return appendTags(
    lines,
    schemaTags(schema).map((tag) => textLines(tag).join(" ")),
  );
}

/**
 * The Python type of a JSON Schema: builtins, `Literal`, `list`, `dict`, unions, and a
 * `TypedDict` class (appended to `out.blocks`) for every object with declared properties,
 * since Python has no anonymous record type. When `name` is given, an object schema at
 * the root is declared under exactly that name (already allocated by the caller).
 */
export function schemaToPython(
  schema: unknown,
  options: { out: PythonDeclarations; refs: RefResolver; hint: string; name?: string | undefined },
): PyType {
  return convert(schema, {
    out: options.out,
    refs: options.refs,
    depth: 0,
    direct: true,
    path: new Set(),
    name: options.name,
    hint: options.hint,
  });
}

function nested(state: State, schema: object, direct: boolean, hint: string): State {
  return {
    out: state.out,
    refs: state.refs,
    depth: state.depth + 1,
    direct,
    path: new Set([...state.path, schema]),
    name: undefined,
    hint,
  };
}

function convert(schema: unknown, state: State): PyType {
  if (schema === true) return ANY;
  if (schema === false) return NEVER;
  if (!isRecord(schema) || state.depth > MAX_SCHEMA_DEPTH || state.path.has(schema)) return ANY;
  if (schema.nullable === true) {
    return unionOf([convertRecord(schema, { ...state, name: undefined }), NONE]);
  }
  return convertRecord(schema, state);
}

function convertRecord(schema: Record<string, unknown>, state: State): PyType {
  if (typeof schema.$ref === "string") {
    const name = state.refs.refName(schema.$ref, state.direct);
    return name === undefined ? ANY : named(name);
  }
  if ("const" in schema) return valueType(schema.const);
  if (Array.isArray(schema.enum)) return unionOf(schema.enum.map(valueType));
  const merged = mergeAllOf(schema);
  const base = convertTyped(merged, state);
  // A declared type says what the value is; combinators beside it mostly narrow it.
  if (base) return base;
  const same = nested(state, schema, state.direct, state.hint);
  const alternatives = ["anyOf", "oneOf"].flatMap((key) => {
    const members = merged[key];
    return Array.isArray(members) ? members : [];
  });
  if (alternatives.length > 0) return unionOf(alternatives.map((member) => convert(member, same)));
  // Python has no intersection: the first member that says something stands for all of them.
  if (Array.isArray(merged.allOf)) {
    for (const member of merged.allOf) {
      const type = convert(member, same);
      if (type.text !== "Any") return type;
    }
  }
  return ANY;
}

const OBJECT_KEYWORDS = ["properties", "additionalProperties", "patternProperties", "required"];
const ARRAY_KEYWORDS = ["items", "prefixItems", "additionalItems"];

/** An `allOf` member that only adds properties can be folded into its parent object. */
function isPlainObject(schema: unknown): schema is Record<string, unknown> {
  if (!isRecord(schema)) return false;
  if (["$ref", "const", "enum", "anyOf", "oneOf", "allOf", "items", "prefixItems"].some((k) => k in schema))
    return false;
  return schema.type === undefined || schema.type === "object";
}

/** `allOf` of plain objects (zod's `.and`, OpenAPI composition) as one object schema; else unchanged. */
function mergeAllOf(schema: Record<string, unknown>): Record<string, unknown> {
  const { allOf } = schema;
  if (!Array.isArray(allOf) || allOf.length === 0 || !allOf.every(isPlainObject)) return schema;
  if (schema.type !== undefined && schema.type !== "object") return schema;
  const properties: Record<string, unknown> = isRecord(schema.properties) ? { ...schema.properties } : {};
  const required = new Set(stringsOf(schema.required));
  for (const member of allOf) {
    if (isRecord(member.properties)) Object.assign(properties, member.properties);
    for (const key of stringsOf(member.required)) required.add(key);
  }
  const { allOf: _folded, ...rest } = schema;
  return { ...rest, type: "object", properties, required: [...required] };
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function convertTyped(schema: Record<string, unknown>, state: State): PyType | undefined {
  const { type } = schema;
  if (Array.isArray(type)) {
    const each = { ...state, name: undefined };
    return unionOf(type.map((t) => (typeof t === "string" ? forTypeName(t, schema, each) : ANY)));
  }
  if (typeof type === "string") return forTypeName(type, schema, state);
  if (OBJECT_KEYWORDS.some((key) => key in schema)) return objectType(schema, state);
  if (ARRAY_KEYWORDS.some((key) => key in schema)) return arrayType(schema, state);
  return undefined;
}

function forTypeName(type: string, schema: Record<string, unknown>, state: State): PyType {
  switch (type) {
    case "string":
      return named("str");
    case "boolean":
      return named("bool");
    case "null":
      return NONE;
    case "number":
      return named("float");
    case "integer":
      return named("int");
    case "array":
      return arrayType(schema, state);
    case "object":
      return objectType(schema, state);
    default:
      return ANY;
  }
}

function arrayType(schema: Record<string, unknown>, state: State): PyType {
  const inner = nested(state, schema, false, `${state.hint}Item`);
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : schema.items;
  if (!Array.isArray(prefix)) return listOf(schema.items === undefined ? ANY : convert(schema.items, inner));
  const rest = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
  const elements = prefix.map((item) => convert(item, inner));
  const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
  const closed = rest === false || maxItems <= prefix.length;
  if (closed && minItems >= prefix.length && elements.length > 0) {
    return named(`tuple[${elements.map((element) => element.text).join(", ")}]`);
  }
  // Optional or open-ended positions: a list of whatever may appear.
  const restType = closed ? [] : [rest === undefined ? ANY : convert(rest, inner)];
  return listOf(unionOf([...elements, ...restType]));
}

export interface PythonField {
  readonly key: string;
  readonly required: boolean;
  readonly type: PyType;
  readonly doc: readonly string[];
}

/** The fields of an object schema (declared properties, then required ones it forgot to declare). */
function objectFields(schema: Record<string, unknown>, state: State): PythonField[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(stringsOf(schema.required));
  const fields: PythonField[] = Object.entries(properties).map(([key, sub]) => ({
    key,
    required: required.has(key),
    type: convert(sub, nested(state, schema, false, `${state.hint}${toPascalCase(toIdentifier(key))}`)),
    doc: pythonDocLines(sub),
  }));
  for (const key of required) {
    if (!Object.hasOwn(properties, key)) fields.push({ key, required: true, type: ANY, doc: [] });
  }
  return fields;
}

/** Value type of keys not declared in `properties`, or undefined when the object says nothing about them. */
function extraKeysType(schema: Record<string, unknown>, state: State): PyType | undefined {
  const inner = nested(state, schema, false, `${state.hint}Value`);
  const parts: PyType[] = [];
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== true && extra !== false) parts.push(convert(extra, inner));
  if (isRecord(schema.patternProperties)) {
    for (const sub of Object.values(schema.patternProperties)) parts.push(convert(sub, inner));
  }
  return parts.length === 0 ? undefined : unionOf(parts);
}

function objectType(schema: Record<string, unknown>, state: State): PyType {
  const hint = state.name ?? state.hint;
  const fields = objectFields(schema, { ...state, hint });
  const extra = extraKeysType(schema, { ...state, hint });
  if (fields.length === 0) return named(`dict[str, ${extra?.text ?? "Any"}]`);
  const doc = state.name ? pythonDocLines(schema) : [];
  // Rendered under a placeholder first: an anonymous object shaped like one already declared
  // (an output echoing its input's items) reuses that class rather than repeating it.
  const shape = renderTypedDict(PLACEHOLDER, fields, { extra, doc }).join("\n");
  const same = state.name ? undefined : state.out.shapes.get(shape);
  if (same !== undefined) return named(same);
  const name = state.name ?? state.out.names.allocate(hint);
  state.out.classes.set(name, { fields, extra });
  if (!state.out.shapes.has(shape)) state.out.shapes.set(shape, name);
  state.out.blocks.push(
    shape.replaceAll(pythonString(PLACEHOLDER), pythonString(name)).replaceAll(PLACEHOLDER, name),
  );
  return named(name);
}

const PLACEHOLDER = "\u0000";

/** A field's doc as a trailing comment when short, else as comment lines above it. */
function withDoc(line: string, doc: readonly string[], indent: string): string[] {
  if (doc.length === 1 && (doc[0] ?? "").length <= TRAILING_COMMENT_MAX_CHARS)
    return [`${line}  # ${doc[0]}`];
  return [...commentLines(doc, indent), line];
}

/**
 * `class Name(TypedDict):` with one annotated field per property (`NotRequired[...]` for
 * optional ones, or `total=False` when none is required). Keys that cannot be written
 * as Python names (`from`, `my-field`) need the functional form `TypedDict("Name", {...})`.
 */
export function renderTypedDict(
  name: string,
  fields: readonly PythonField[],
  options: { extra?: PyType | undefined; doc?: readonly string[] } = {},
): string[] {
  const total = fields.some((field) => field.required);
  const fieldType = (field: PythonField) =>
    total && !field.required ? `NotRequired[${field.type.text}]` : field.type.text;
  const extraNote = options.extra ? [`other keys: ${options.extra.text}`] : [];
  if (fields.every((field) => isPythonName(field.key))) {
    const body = [
      ...docstring([...(options.doc ?? []), ...extraNote], INDENT),
      ...fields.flatMap((field) => withDoc(`${INDENT}${field.key}: ${fieldType(field)}`, field.doc, INDENT)),
    ];
    return [`class ${name}(TypedDict${total ? "" : ", total=False"}):`, ...body];
  }
  const doc = commentLines([...(options.doc ?? []), ...extraNote]);
  const entries = fields.flatMap((field) =>
    withDoc(`${INDENT}${pythonString(field.key)}: ${fieldType(field)},`, field.doc, INDENT),
  );
  return [
    ...doc,
    `${name} = TypedDict(${pythonString(name)}, {`,
    ...entries,
    `}${total ? "" : ", total=False"})`,
  ];
}
