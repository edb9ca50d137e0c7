import { toPascalCase } from "../../naming.ts";
import type { CatalogTool } from "../../types.ts";
import { appendTags } from "../jsdoc.ts";
import { isRecord } from "../json.ts";
import { NameAllocator } from "../name-allocator.ts";
import { DefinitionRegistry, type NamedSchema } from "../refs.ts";
import { annotationTags, INLINE_SIGNATURE_TYPE_MAX_CHARS } from "../tool-declaration.ts";
import { isPythonName, pythonNames, toPythonName } from "./python-names.ts";
import { docstring, pythonString, textLines } from "./python-text.ts";
import type { PyType } from "./python-type.ts";
import {
  type PythonDeclarations,
  pythonDeclarations,
  pythonDocLines,
  schemaToPython,
} from "./schema-to-python.ts";

/** Names a stub uses from `typing` and the builtins: a generated class must never shadow them. */
const RESERVED = [
  "Any",
  "Literal",
  "Never",
  "NotRequired",
  "TypedDict",
  "bool",
  "dict",
  "float",
  "int",
  "list",
  "object",
  "str",
  "tuple",
  "type",
];
const TYPING_NAMES = ["Any", "Literal", "Never", "NotRequired", "TypedDict"];
const INDENT = "    ";

export interface PythonStubOptions {
  /**
   * The tools of the tool's server, to name it as the Python runtime does (`pythonNames`:
   * a keyword identifier becomes `from_`, never clashing with a sibling). Default: just this tool.
   */
  serverTools?: readonly CatalogTool[];
}

/** The Python call path of a tool: `tools.<server>.<tool>` with Python-safe attributes. */
export function pythonToolPath(tool: CatalogTool, serverTools: readonly CatalogTool[] = [tool]): string {
  const toolName = pythonNames(serverTools.map((entry) => entry.toolId)).get(tool.toolId);
  return `tools.${toPythonName(tool.serverId)}.${toolName ?? toPythonName(tool.toolId)}`;
}

interface Parameters {
  /** `keywords`: one argument per property; `dict`: one positional dict; `none`: no argument. */
  readonly kind: "keywords" | "dict" | "none";
  /** The parameter list after `self` (without the dict's type, which the caller names). */
  readonly text: string;
  /** The dict may be left out (every key optional). */
  readonly optional: boolean;
}

/** How the input is passed: keyword arguments (one per property), one dict, or nothing. */
function parameters(schema: unknown, input: PyType, inputName: string, out: PythonDeclarations): Parameters {
  const declared = input.text === inputName ? out.classes.get(inputName) : undefined;
  if (declared?.fields.every((field) => isPythonName(field.key) && field.key !== "self")) {
    const params = declared.fields.map(
      (field) => `${field.key}: ${field.type.text}${field.required ? "" : " = ..."}`,
    );
    if (declared.extra) params.push(`**kwargs: ${declared.extra.text}`);
    return { kind: "keywords", text: `*, ${params.join(", ")}`, optional: false };
  }
  if (declared === undefined && isEmptyObject(schema)) {
    const extra = isRecord(schema) ? schema.additionalProperties : undefined;
    // `{"type": "object"}` says no more than "no arguments" for a tool; a value schema says which extra keys.
    const text =
      isRecord(extra) && input.text !== "dict[str, Any]"
        ? `**kwargs: ${input.text.slice("dict[str, ".length, -1)}`
        : "";
    return { kind: "none", text, optional: true };
  }
  const optional = declared?.fields.every((field) => !field.required) ?? false;
  return { kind: "dict", text: "", optional };
}

/** An object schema with no property to pass, and no combinator that could add one. */
function isEmptyObject(schema: unknown): boolean {
  if (!isRecord(schema)) return true;
  if (["$ref", "allOf", "anyOf", "oneOf", "enum", "const"].some((key) => key in schema)) return false;
  const hasProperties = isRecord(schema.properties) && Object.keys(schema.properties).length > 0;
  const hasRequired = Array.isArray(schema.required) && schema.required.length > 0;
  return !hasProperties && !hasRequired;
}

/** The method's docstring: description (or title), hint tags, and how to pass a dict-only input. */
function methodDoc(tool: CatalogTool, dictOnly: boolean): string[] {
  const { definition } = tool;
  const text = definition.description?.trim() ? definition.description : (definition.title ?? "");
  const lines = appendTags(textLines(text), annotationTags(definition.annotations));
  if (dictOnly) lines.push("Takes one dict: some of its keys are not Python names.");
  return lines;
}

/**
 * The `.pyi` stub of one tool (`servers/<server>/<tool>.pyi`): a `TypedDict` for its input
 * (and output, and every nested object and local `$ref` target), then the server's class
 * with the tool as an `async def` method taking keyword arguments, e.g.
 * `async def get_sum(self, *, a: float, b: float) -> Any`. A tool whose argument names
 * are not all Python names takes one dict instead (`tools.s.t({"from": 1})`).
 */
export function renderPythonStub(tool: CatalogTool, options: PythonStubOptions = {}): string {
  const { definition } = tool;
  const serverTools = options.serverTools ?? [tool];
  const path = pythonToolPath(tool, serverTools);
  const [, serverAttr = tool.serverId, methodName = tool.toolId] = path.split(".");
  const names = new NameAllocator();
  for (const name of RESERVED) names.allocate(name);
  const serverClass = names.allocate(serverAttr);
  const pascal = toPascalCase(tool.toolId);
  const inputName = names.allocate(`${pascal}Input`);
  const outputName = names.allocate(`${pascal}Output`);
  const registry = new DefinitionRegistry(pascal, names);
  const out = pythonDeclarations(names);

  const render = (entry: NamedSchema): PyType =>
    schemaToPython(entry.schema, {
      out,
      refs: registry.resolverFor(entry),
      hint: entry.name,
      name: entry.name,
    });
  /** Declares a document that did not become a class under its name, when it needs one. */
  const aliased = new Set<string>();
  const alias = (entry: NamedSchema, type: PyType, always = false): string => {
    if (type.text === entry.name || aliased.has(entry.name)) return entry.name;
    if (!always && !registry.isReferenced(entry) && type.text.length <= INLINE_SIGNATURE_TYPE_MAX_CHARS)
      return type.text;
    out.blocks.push(`${entry.name} = ${type.text}`);
    aliased.add(entry.name);
    return entry.name;
  };

  const inputEntry = registry.addDocument(definition.inputSchema, inputName);
  const input = render(inputEntry);
  const sameShape =
    definition.outputSchema !== undefined &&
    JSON.stringify(definition.outputSchema) === JSON.stringify(definition.inputSchema);
  const outputEntry =
    definition.outputSchema === undefined || sameShape
      ? undefined
      : registry.addDocument(definition.outputSchema, outputName);
  const output = outputEntry ? render(outputEntry) : undefined;
  for (let entry = registry.takePending(); entry; entry = registry.takePending()) {
    const type = render(entry);
    if (type.text !== entry.name) {
      out.blocks.push([...commentDoc(entry.schema), `${entry.name} = ${type.text}`].join("\n"));
    }
  }
  const params = parameters(definition.inputSchema, input, inputName, out);
  let signature = params.text === "" ? "self" : `self, ${params.text}`;
  if (params.kind === "dict") {
    signature = `self, input: ${alias(inputEntry, input)}${params.optional ? " = ..." : ""}, /`;
  } else if (registry.isReferenced(inputEntry)) alias(inputEntry, input, true);
  const returns = sameShape
    ? alias(inputEntry, input)
    : output && outputEntry
      ? alias(outputEntry, output)
      : "Any";

  const serverPath =
    tool.server === serverAttr ? `tools.${serverAttr}` : `tools[${pythonString(tool.server)}]`;
  const original =
    tool.tool === methodName && tool.server === serverAttr
      ? ""
      : ` (also ${serverPath}[${pythonString(tool.tool)}])`;
  const body = [
    `class ${serverClass}:`,
    ...(serverClass === serverAttr ? [] : docstring([`tools.${serverAttr}`], INDENT)),
    `${INDENT}async def ${methodName}(${signature}) -> ${returns}:`,
    ...docstring(methodDoc(tool, params.kind === "dict" && input.text === inputName), INDENT + INDENT),
    `${INDENT}${INDENT}...`,
  ];
  const blocks = [...out.blocks, body.join("\n")];
  const text = blocks.join("\n\n");
  const typing = TYPING_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(text));
  const header = [`# ${path}${original}`];
  if (typing.length > 0) header.push(`from typing import ${typing.join(", ")}`);
  return `${header.join("\n")}\n\n${text}\n`;
}

function commentDoc(schema: unknown): string[] {
  return pythonDocLines(schema).map((line) => (line === "" ? "#" : `# ${line}`));
}
