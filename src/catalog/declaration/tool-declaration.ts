import { toPascalCase } from "../naming.ts";
import type { CatalogTool, ToolAnnotations } from "../types.ts";
import { appendTags, descriptionLines, renderJsDoc, schemaDocLines } from "./jsdoc.ts";
import { isRecord } from "./json.ts";
import { NameAllocator } from "./name-allocator.ts";
import { DefinitionRegistry, type NamedSchema } from "./refs.ts";
import { schemaToType } from "./schema-to-type.ts";
import { primary, type TypeExpr } from "./type-expr.ts";

/** A one-line type without a name of its own is written in the signature when at most this long. */
export const INLINE_SIGNATURE_TYPE_MAX_CHARS = 60;

/** Short tags for the MCP hints; destructive/idempotent only mean something for tools that write. */
export function annotationTags(annotations: ToolAnnotations | undefined): string[] {
  if (!annotations) return [];
  const tags: string[] = [];
  if (annotations.readOnlyHint === true) tags.push("@readonly");
  else {
    if (annotations.destructiveHint === true) tags.push("@destructive");
    if (annotations.idempotentHint === true) tags.push("@idempotent");
  }
  if (annotations.openWorldHint === true) tags.push("@openWorld");
  return tags;
}

/** Arguments may be left out when the schema neither declares nor requires any property. */
function inputIsOptional(schema: unknown): boolean {
  if (!isRecord(schema)) return true;
  if (["$ref", "allOf", "anyOf", "oneOf", "enum", "const"].some((key) => key in schema)) return false;
  const hasProperties = isRecord(schema.properties) && Object.keys(schema.properties).length > 0;
  const hasRequired = Array.isArray(schema.required) && schema.required.length > 0;
  return !hasProperties && !hasRequired;
}

function declareNamed(name: string, type: TypeExpr, doc: readonly string[]): string {
  const head = renderJsDoc(doc);
  if (type.isObject) return `${head}export interface ${name} ${type.text}`;
  return `${head}export type ${name} = ${type.text};`;
}

interface Rendered {
  readonly entry: NamedSchema;
  readonly type: TypeExpr;
}

/** A document root is declared by name unless it is short, anonymous and never referenced. */
function needsName(rendered: Rendered, registry: DefinitionRegistry): boolean {
  const { type } = rendered;
  if (type.isObject || registry.isReferenced(rendered.entry)) return true;
  return type.text.includes("\n") || type.text.length > INLINE_SIGNATURE_TYPE_MAX_CHARS;
}

/**
 * The comment on the function: description (or title), hint tags, and the original
 * `server/tool` when the tool's identifier differs from its name (a renamed server alone
 * is said once, in the server index, rather than on every tool).
 */
function functionDoc(tool: CatalogTool): string[] {
  const { definition } = tool;
  const text = definition.description?.trim() ? definition.description : (definition.title ?? "");
  const lines = appendTags(descriptionLines(text), annotationTags(definition.annotations));
  if (tool.tool !== tool.toolId) {
    lines.push(descriptionLines(`@original ${tool.server}/${tool.tool}`).join(" "));
  }
  return lines;
}

export interface DeclarationOptions {
  /**
   * What a tool without an output schema returns: `unknown` (what agents read), or `any`
   * for type-checking programs, which may use a result however the agent knows it is.
   */
  untypedOutput?: "unknown" | "any";
}

/**
 * The declaration file of one tool (`servers/<serverId>/<toolId>.d.ts`): its input and
 * output types, the local `$ref` types they use (prefixed with the tool's Pascal name),
 * and the function itself with its description.
 */
export function renderToolDeclaration(tool: CatalogTool, options: DeclarationOptions = {}): string {
  const { definition } = tool;
  const pascal = toPascalCase(tool.toolId);
  const names = new NameAllocator();
  const inputName = names.allocate(`${pascal}Input`);
  const outputName = names.allocate(`${pascal}Output`);
  const registry = new DefinitionRegistry(pascal, names);

  const render = (entry: NamedSchema): Rendered => ({
    entry,
    type: schemaToType(entry.schema, registry.resolverFor(entry)),
  });
  const inputRendered = render(registry.addDocument(definition.inputSchema, inputName));
  // Tool arguments are always a JSON object, whatever the schema fails to say.
  const input =
    inputRendered.type.text === "unknown"
      ? { entry: inputRendered.entry, type: primary("Record<string, unknown>") }
      : inputRendered;
  const output =
    definition.outputSchema === undefined
      ? undefined
      : render(registry.addDocument(definition.outputSchema, outputName));
  const definitions: string[] = [];
  for (let entry = registry.takePending(); entry; entry = registry.takePending()) {
    const { type } = render(entry);
    definitions.push(declareNamed(entry.name, type, schemaDocLines(entry.schema)));
  }

  const blocks = [`// ${tool.path}`];
  const signatureType = (rendered: Rendered): string => {
    if (!needsName(rendered, registry)) return rendered.type.text;
    blocks.push(declareNamed(rendered.entry.name, rendered.type, schemaDocLines(rendered.entry.schema)));
    return rendered.entry.name;
  };
  const inputType = signatureType(input);
  // Tools that echo what they stored (e.g. server-memory) have the same shape both ways: say it once.
  const outputType = !output
    ? (options.untypedOutput ?? "unknown")
    : output.type.text === input.type.text
      ? inputType
      : signatureType(output);
  blocks.push(...definitions);
  const param = inputIsOptional(definition.inputSchema) ? "input?" : "input";
  blocks.push(
    `${renderJsDoc(functionDoc(tool))}export declare function ${tool.toolId}(${param}: ${inputType}): Promise<${outputType}>;`,
  );
  return `${blocks.join("\n")}\n`;
}
