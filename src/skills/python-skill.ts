import { SkillCheckError } from "./errors.ts";

/**
 * Python skills are read here without Python: the gateway never runs Python (the Python
 * runtime lives only in the process tier), and the machine's python3 is no dependency.
 * This is a small, bounded reading of the lines that matter — top-level `def` / `async def`
 * signatures with their docstrings, and `skills.<name>` imports — not a parser; the full
 * syntax check is the runtime's (`PythonSkillValidator`).
 */

/** Largest Python skill source accepted. */
export const MAX_PYTHON_SKILL_CHARS = 200_000;
/** Top-level functions kept in a declaration; more are still importable, just not listed. */
export const MAX_DECLARED_FUNCTIONS = 200;
/** A signature spanning more lines than this is cut (the declaration says so). */
const MAX_SIGNATURE_LINES = 40;
/** Docstring lines kept in the declaration. */
const MAX_DOCSTRING_LINES = 30;

/** What the runtime's syntax check found wrong: the message, and the 1-based line when known. */
export interface PythonSkillProblem {
  message: string;
  line?: number | undefined;
}

/**
 * The full syntax check of a Python skill, provided by the Python runtime (it compiles the
 * source in a sandboxed interpreter); undefined when the code is fine.
 */
export type PythonSkillValidator = (input: {
  name: string;
  code: string;
}) => Promise<PythonSkillProblem | undefined>;

export interface PythonFunction {
  name: string;
  /** 1-based line of the `def`. */
  line: number;
  /** Decorators, the signature as written (joined to one line) and the docstring. */
  stub: string;
}

export interface PythonSkillDeclaration {
  /** The stub text: one `def ...: """doc"""; ...` per public top-level function. */
  declaration: string;
  /** Public top-level function names (no leading `_`). */
  exports: string[];
  /** Skills imported, by module name (`from skills.stats import mean` → `stats`) and line. */
  imports: Array<{ module: string; line: number }>;
}

const DEF = /^(async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(/;
const SKILL_IMPORT =
  /^(?:from\s+skills\.([A-Za-z_][A-Za-z0-9_]*)\s+import\b|import\s+skills\.([A-Za-z_][A-Za-z0-9_]*))/;
const TRIPLE = /"""|'''/g;

/** Toggles the triple-quoted-string state for each `"""` / `'''` on a line (good enough for top-level text). */
function endsInsideString(line: string, inside: string | undefined): string | undefined {
  let state = inside;
  for (const match of line.matchAll(TRIPLE)) {
    if (state === undefined) state = match[0];
    else if (state === match[0]) state = undefined;
  }
  return state;
}

/**
 * Index of the colon that ends a `def` header (after its parameter list, outside brackets and
 * strings), or undefined when the header goes on. Comments must be cut from `text` already.
 */
function headerEnd(text: string): number | undefined {
  let depth = 0;
  let opened = false;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[" || c === "{") {
      depth++;
      opened = true;
    } else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === ":" && depth === 0 && opened) return i;
  }
  return undefined;
}

/** A line without its comment (a `#` with no quote after it: good enough for signatures). */
function withoutComment(line: string): string {
  return line.replace(/\s*#[^"']*$/, "").trim();
}

/** The docstring right after a signature (lines `from`..), indented, or none. */
function docstringAt(lines: readonly string[], from: number): string[] {
  let i = from;
  while (i < lines.length && lines[i]!.trim() === "") i++;
  const first = lines[i];
  if (first === undefined || !/^\s+[rRuU]?("""|''')/.test(first)) return [];
  const quote = /("""|''')/.exec(first)?.[1] ?? '"""';
  const doc = [first];
  const rest = first.slice(first.indexOf(quote) + 3);
  if (rest.includes(quote)) return doc;
  for (let j = i + 1; j < lines.length && doc.length < MAX_DOCSTRING_LINES; j++) {
    doc.push(lines[j]!);
    if (lines[j]!.includes(quote)) return doc;
  }
  // Cut short: close it so the stub stays readable.
  const indent = /^\s*/.exec(first)?.[0] ?? "    ";
  return [...doc, `${indent}(…)${quote}`];
}

/** Public top-level functions of a module, in source order (at most `MAX_DECLARED_FUNCTIONS`). */
export function pythonFunctions(code: string): PythonFunction[] {
  const lines = code.replace(/\r\n?/g, "\n").split("\n");
  const functions: PythonFunction[] = [];
  let inString: string | undefined;
  let decorators: string[] = [];
  for (let i = 0; i < lines.length && functions.length < MAX_DECLARED_FUNCTIONS; i++) {
    const line = lines[i]!;
    const wasInString = inString;
    inString = endsInsideString(line, inString);
    if (wasInString !== undefined || /^\s/.test(line) || line === "") continue;
    if (line.startsWith("@")) {
      decorators.push(line.trimEnd());
      continue;
    }
    const match = DEF.exec(line);
    if (!match) {
      if (!line.startsWith("#")) decorators = [];
      continue;
    }
    // The header as one line, up to the colon that opens the body (a one-line body is left out).
    let header = withoutComment(line);
    let end = i;
    let colon = headerEnd(header);
    while (colon === undefined && end + 1 < lines.length && end - i < MAX_SIGNATURE_LINES) {
      end++;
      header = `${header} ${withoutComment(lines[end]!)}`;
      colon = headerEnd(header);
    }
    const name = match[2]!;
    if (!name.startsWith("_")) {
      const head =
        colon === undefined
          ? `${header.replace(/\s+/g, " ")}  # (signature cut)`
          : header.slice(0, colon + 1).replace(/\s+/g, " ");
      const doc = docstringAt(lines, end + 1);
      const indent = /^\s*/.exec(doc[0] ?? "")?.[0] || "    ";
      functions.push({
        name,
        line: i + 1,
        stub: [...decorators, head, ...doc, `${indent}...`].join("\n"),
      });
    }
    decorators = [];
    i = end;
  }
  return functions;
}

/** `skills.<module>` imports of a module (not in strings), each with its first 1-based line. */
export function pythonSkillImports(code: string): Array<{ module: string; line: number }> {
  const imports: Array<{ module: string; line: number }> = [];
  let inString: string | undefined;
  const lines = code.replace(/\r\n?/g, "\n").split("\n");
  for (const [index, line] of lines.entries()) {
    const wasInString = inString;
    inString = endsInsideString(line, inString);
    if (wasInString !== undefined) continue;
    const match = SKILL_IMPORT.exec(line.trim());
    const module = match?.[1] ?? match?.[2];
    if (module !== undefined && !imports.some((entry) => entry.module === module)) {
      imports.push({ module, line: index + 1 });
    }
  }
  return imports;
}

/**
 * What can be checked of a Python skill without Python: not empty, within the size bound,
 * and a module that defines at least one public top-level function. Returns its
 * declaration; throws `SkillCheckError` (`skill.syntax`) naming what is wrong.
 */
export function declarePythonSkill(name: string, code: string): PythonSkillDeclaration {
  const refuse = (message: string, line?: number) =>
    new SkillCheckError("skill.syntax", `Python skill "${name}": ${message}`, {
      name,
      ...(line !== undefined && { line }),
    });
  if (code.trim() === "") throw refuse("the code is empty");
  if (code.length > MAX_PYTHON_SKILL_CHARS) {
    throw refuse(
      `the code is ${code.length} characters long; at most ${MAX_PYTHON_SKILL_CHARS} are accepted`,
    );
  }
  const nul = code.indexOf("\u0000");
  if (nul >= 0) throw refuse("the code contains a NUL character", code.slice(0, nul).split("\n").length);
  const functions = pythonFunctions(code);
  if (functions.length === 0) {
    const typescript = /^\s*(export|import\s*\{|const|let|function)\b/m.test(code);
    throw refuse(
      typescript
        ? 'this looks like TypeScript; save it without language "python"'
        : "no public top-level function (`def name(...):` at the start of a line, not starting with `_`); a skill is a module of functions to import",
    );
  }
  return {
    declaration: `${functions.map((fn) => fn.stub).join("\n\n")}\n`,
    exports: functions.map((fn) => fn.name),
    imports: pythonSkillImports(code),
  };
}

/** Function names declared in a stored Python skill declaration. */
export function pythonDeclaredExports(declaration: string): string[] {
  const names: string[] = [];
  for (const line of declaration.split("\n")) {
    const name = DEF.exec(line)?.[2];
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}
