import { SKILL_IMPORT_FUNCTION } from "../sandbox/isolate/prelude.ts";
import type { ExecutionError } from "../sandbox/types.ts";
import { isBuiltinModule } from "./builtin-modules.ts";
import type { StaticImport } from "./static-imports.ts";
import { syntaxError } from "./syntax-error.ts";

/** What `import ... from "skills/<name>"` may name: the skill names the store accepts. */
export const SKILL_SPECIFIER = /^skills\/([A-Za-z][A-Za-z0-9_-]*)$/;

const CLAUSE = /^import\s*([\s\S]*?)\s*from\s*["']$/;
const NAMESPACE = /^\*\s*as\s+([A-Za-z_$][\w$]*)$/;
const BINDING = /^[A-Za-z_$][\w$]*$/;
const NAMED = /^(?:type\s+)?([A-Za-z_$][\w$]*|"[^"]*"|'[^']*')(?:\s+as\s+([A-Za-z_$][\w$]*))?$/;
const TYPE_SPECIFIER = /^type\s+[^,]/;

interface Bindings {
  defaultName?: string;
  namespace?: string;
  /** [exported name, local name] */
  named: Array<[string, string]>;
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
}

/** Parses the clause between `import` and `from`; undefined when it is not one this step understands. */
function parseClause(clause: string): Bindings | undefined {
  const bindings: Bindings = { named: [] };
  let rest = clause.trim();
  const braceAt = rest.indexOf("{");
  let braces: string | undefined;
  if (braceAt >= 0) {
    if (!rest.endsWith("}")) return undefined;
    braces = rest.slice(braceAt + 1, -1);
    rest = rest.slice(0, braceAt).trim();
  }
  for (const part of rest
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)) {
    const namespace = NAMESPACE.exec(part);
    if (namespace?.[1]) bindings.namespace = namespace[1];
    else if (BINDING.test(part) && bindings.defaultName === undefined) bindings.defaultName = part;
    else return undefined;
  }
  for (const item of (braces ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const match = NAMED.exec(item);
    if (!match?.[1]) return undefined;
    if (TYPE_SPECIFIER.test(item) && !/^type\s+as\s/.test(item)) continue; // `type T`: erased
    const exported = /^["']/.test(match[1]) ? match[1].slice(1, -1) : match[1];
    const local = match[2] ?? match[1];
    if (!BINDING.test(local)) return undefined;
    bindings.named.push([exported, local]);
  }
  return bindings;
}

function key(name: string): string {
  return BINDING.test(name) ? name : JSON.stringify(name);
}

/** One statement (on one line) that binds what the declaration imports, awaited from the sandbox's loader. */
function importStatement(skill: string, bindings: Bindings | "bare"): string {
  const call = (names: string[] | undefined) =>
    `await ${SKILL_IMPORT_FUNCTION}(${JSON.stringify(skill)}${names ? `, ${JSON.stringify(names)}` : ""})`;
  if (bindings === "bare") return `${call(undefined)};`;
  const pattern: string[] = [];
  if (bindings.defaultName !== undefined) pattern.push(`default: ${bindings.defaultName}`);
  for (const [exported, local] of bindings.named)
    pattern.push(exported === local ? local : `${key(exported)}: ${local}`);
  const wanted = [
    ...(bindings.defaultName !== undefined ? ["default"] : []),
    ...bindings.named.map(([name]) => name),
  ];
  if (bindings.namespace !== undefined) {
    const destructure = pattern.length > 0 ? `, { ${pattern.join(", ")} } = ${bindings.namespace}` : "";
    return `const ${bindings.namespace} = ${call(wanted.length > 0 ? wanted : undefined)}${destructure};`;
  }
  if (pattern.length === 0) return "";
  return `const { ${pattern.join(", ")} } = ${call(wanted)};`;
}

export type ResolvedImports = { ok: true; body: string } | { ok: false; error: ExecutionError };

/**
 * Turns the leading `import ... from "skills/<name>"` declarations (already
 * blanked in `body`) into awaited loader calls on the declaration's first line,
 * so every later line keeps its number, and likewise the built-in modules
 * (`toolscript/analysis`). Type-only imports stay erased; any other value
 * import is refused.
 */
export function resolveSkillImports(
  imports: readonly StaticImport[],
  source: string,
  body: string,
): ResolvedImports {
  let out = body;
  // Last first: a statement longer than its declaration then never moves the offsets of the others.
  for (const declaration of [...imports].reverse()) {
    if (declaration.typeOnly) continue;
    const error = (text: string) => ({
      ok: false as const,
      error: syntaxError(source, text, declaration.line, declaration.column),
    });
    // The loader takes a skill by its name and a built-in module by its specifier (no skill name has a "/").
    const skill =
      SKILL_SPECIFIER.exec(declaration.specifier)?.[1] ??
      (isBuiltinModule(declaration.specifier) ? declaration.specifier : undefined);
    if (skill === undefined) {
      return error(
        `Cannot import "${declaration.specifier}": only saved skills can be imported, as "skills/<name>", and the built-in "toolscript/analysis" (tools are the global \`tools\`)`,
      );
    }
    const text = stripComments(declaration.text);
    const quoteAt = text.search(/["']/);
    const head = text.slice(0, quoteAt + 1);
    let statement: string;
    if (/^import\s*["']$/.test(head)) statement = importStatement(skill, "bare");
    else {
      const clause = CLAUSE.exec(head)?.[1];
      const bindings = clause === undefined ? undefined : parseClause(clause);
      if (bindings === undefined) return error(`Cannot read the import of "${declaration.specifier}"`);
      statement = importStatement(skill, bindings);
    }
    const firstLine = declaration.text.split("\n", 1)[0] ?? "";
    out = out.slice(0, declaration.start) + statement + out.slice(declaration.start + firstLine.length);
  }
  return { ok: true, body: out };
}
