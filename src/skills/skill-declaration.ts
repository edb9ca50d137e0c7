import { dirname, join } from "node:path";
import type ts from "typescript";
import { BUILTIN_MODULES, isBuiltinModule } from "../compile/builtin-modules.ts";
import { SKILL_SPECIFIER } from "../compile/skill-imports.ts";
import {
  loadTypeScript,
  positionIn,
  resolveWithSkills,
  SANDBOX_LIB,
  SKILLS_DIR,
} from "../compile/typescript-api.ts";
import { SkillCheckError } from "./errors.ts";
import { SANDBOX_GLOBALS_DECLARATION } from "./sandbox-globals.ts";

export interface DeclareSkillInput {
  name: string;
  code: string;
  /** The catalog's declaration tree (`renderTree`): `index.d.ts` declares the global `tools`. */
  toolsTree: ReadonlyMap<string, string>;
  /** The declaration of another saved skill, for `import ... from "skills/<name>"`. */
  skillDeclaration: (name: string) => string | undefined;
}

export interface SkillDeclaration {
  /** The `.d.ts` text: exported functions with their parameter and return types. */
  declaration: string;
  /** Exported names (`default` for a default export). */
  exports: string[];
  /** Skills the code imports. */
  imports: string[];
}

// Virtual layout: skills side by side in /skills/, so a declaration that names another's types resolves.
const TOOLS_DIR = "/toolscript/";
const GLOBALS_FILE = `${TOOLS_DIR}sandbox-globals.d.ts`;
const LIB = SANDBOX_LIB;
/** Diagnostics quoted in a refusal; the first one carries the line. */
const MAX_REPORTED = 5;

// Parsed files reused across checks (lib files above all, ~1 MB to parse): keyed by name and text.
const parsed = new Map<string, ts.SourceFile>();
const MAX_PARSED = 2_000;

function sourceFile(api: typeof ts, fileName: string, text: string): ts.SourceFile {
  const key = `${fileName}\u0000${text.length}\u0000${text}`;
  let file = parsed.get(key);
  if (!file) {
    if (parsed.size >= MAX_PARSED) parsed.clear();
    file = api.createSourceFile(fileName, text, api.ScriptTarget.ES2022, true);
    parsed.set(key, file);
  }
  return file;
}

function compilerOptions(api: typeof ts): ts.CompilerOptions {
  return {
    strict: true,
    target: api.ScriptTarget.ES2022,
    module: api.ModuleKind.ESNext,
    moduleResolution: api.ModuleResolutionKind.Bundler,
    lib: [LIB],
    types: [],
    declaration: true,
    emitDeclarationOnly: true,
    skipLibCheck: true,
    noEmitOnError: false,
    allowImportingTsExtensions: false,
  };
}

function virtualFiles(input: DeclareSkillInput, imports: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const [path, text] of input.toolsTree) files.set(`${TOOLS_DIR}${path}`, text);
  files.set(GLOBALS_FILE, SANDBOX_GLOBALS_DECLARATION);
  for (const module of BUILTIN_MODULES.values()) files.set(module.fileName, module.text);
  for (const imported of imports) {
    if (imported === input.name) continue;
    const declaration = input.skillDeclaration(imported);
    if (declaration !== undefined) files.set(`${SKILLS_DIR}${imported}.d.ts`, declaration);
  }
  files.set(`${SKILLS_DIR}${input.name}.ts`, input.code);
  return files;
}

const position = positionIn;

function refuse(
  api: typeof ts,
  name: string,
  code: "skill.syntax" | "skill.type" | "skill.import",
  diagnostics: readonly ts.Diagnostic[],
): SkillCheckError {
  const first = diagnostics[0];
  const at = position(first?.file, first?.start);
  const lines = diagnostics.slice(0, MAX_REPORTED).map((diagnostic) => {
    const where = position(diagnostic.file, diagnostic.start);
    const text = api.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    return `${where.line !== undefined ? `line ${where.line}, column ${where.column}: ` : ""}${text} (TS${diagnostic.code})`;
  });
  const more = diagnostics.length > MAX_REPORTED ? `\n(${diagnostics.length - MAX_REPORTED} more)` : "";
  const kind = code === "skill.syntax" ? "has a syntax error" : "does not type-check";
  return new SkillCheckError(code, `skill "${name}" ${kind}:\n${lines.join("\n")}${more}`, {
    name,
    ...at,
    diagnostics: lines,
  });
}

function importsOf(api: typeof ts, file: ts.SourceFile, name: string): string[] {
  const skills: string[] = [];
  for (const statement of file.statements) {
    const specifier =
      (api.isImportDeclaration(statement) || api.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      api.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier
        : undefined;
    if (!specifier || isBuiltinModule(specifier.text)) continue;
    const skill = SKILL_SPECIFIER.exec(specifier.text)?.[1];
    if (skill === undefined) {
      const at = position(file, specifier.getStart(file));
      throw new SkillCheckError(
        "skill.import",
        `skill "${name}" imports "${specifier.text}" (line ${at.line}): skills can import only other skills, as "skills/<name>", and "toolscript/analysis"; tools are the global \`tools\``,
        { name, ...at, specifier: specifier.text },
      );
    }
    if (!skills.includes(skill)) skills.push(skill);
  }
  return skills;
}

/**
 * Type-checks a skill against the sandbox globals, the catalog's `tools` and
 * the skills it imports, and derives its declaration with the TypeScript
 * compiler. Throws `SkillCheckError` with the compiler's message and line.
 */
export async function declareSkill(input: DeclareSkillInput): Promise<SkillDeclaration> {
  const api = await loadTypeScript();
  const options = compilerOptions(api);
  const skillFile = `${SKILLS_DIR}${input.name}.ts`;
  const parsedSkill = api.createSourceFile(skillFile, input.code, api.ScriptTarget.ES2022, true);
  const syntax = (parsedSkill as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  if (syntax.length > 0) throw refuse(api, input.name, "skill.syntax", syntax);
  const imports = importsOf(api, parsedSkill, input.name);
  const files = virtualFiles(input, imports);
  const libDir = dirname(api.getDefaultLibFilePath(options));
  const host: ts.CompilerHost = {
    fileExists: (fileName) => files.has(fileName) || api.sys.fileExists(fileName),
    readFile: (fileName) => files.get(fileName) ?? api.sys.readFile(fileName),
    getSourceFile: (fileName) => {
      if (fileName === skillFile) return parsedSkill;
      const text =
        files.get(fileName) ?? (fileName.startsWith(libDir) ? api.sys.readFile(fileName) : undefined);
      return text === undefined ? undefined : sourceFile(api, fileName, text);
    },
    getDefaultLibFileName: () => join(libDir, LIB),
    getDefaultLibLocation: () => libDir,
    writeFile: () => {},
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (fileName) => fileName,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    directoryExists: (dir) => dir === "/" || [...files.keys()].some((file) => file.startsWith(`${dir}/`)),
    getDirectories: () => [],
    // `skills/<name>` is the saved skill's declaration; the tools tree resolves as usual (`./x.js` -> `./x.d.ts`).
    resolveModuleNameLiterals: resolveWithSkills(
      api,
      () => host,
      (fileName) => files.has(fileName),
    ),
  };
  const program = api.createProgram({
    rootNames: [skillFile, `${TOOLS_DIR}index.d.ts`, GLOBALS_FILE].filter(
      (file) => file === skillFile || files.has(file),
    ),
    options,
    host,
  });
  const source = program.getSourceFile(skillFile);
  if (!source) throw new Error(`the compiler lost ${skillFile}`);
  const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  if (diagnostics.length > 0) {
    const missingImport = diagnostics.some((diagnostic) => diagnostic.code === 2307);
    throw refuse(api, input.name, missingImport ? "skill.import" : "skill.type", diagnostics);
  }
  let declaration = "";
  const emitted = program.emit(
    source,
    (fileName, text) => {
      if (fileName.endsWith(".d.ts")) declaration = text;
    },
    undefined,
    true,
  );
  const declarationProblems = [...program.getDeclarationDiagnostics(source), ...emitted.diagnostics];
  if (declarationProblems.length > 0) throw refuse(api, input.name, "skill.type", declarationProblems);
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const exports = moduleSymbol ? checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.name) : [];
  return { declaration, exports, imports };
}
