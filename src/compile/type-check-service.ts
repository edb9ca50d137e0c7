import { dirname, join } from "node:path";
import type ts from "typescript";
import type { ExecutionError } from "../sandbox/types.ts";
import { SANDBOX_GLOBALS_DECLARATION } from "../skills/sandbox-globals.ts";
import { BUILTIN_MODULES } from "./builtin-modules.ts";
import { type CheckSource, checkSource } from "./type-check-source.ts";
import { resolveWithSkills, SANDBOX_LIB, SKILLS_DIR } from "./typescript-api.ts";

/** Diagnostics quoted in the error; the first one is in `line`/`column`. */
export const MAX_REPORTED_DIAGNOSTICS = 10;
/** Characters of one diagnostic's text (a type printed whole can be long). */
export const MAX_DIAGNOSTIC_CHARS = 400;

const TOOLS_DIR = "/toolscript/";
const PROGRAM_FILE = "/agent.ts";
const TOOLS_ROOT = `${TOOLS_DIR}index.d.ts`;
const GLOBALS_FILE = `${TOOLS_DIR}sandbox-globals.d.ts`;
const ROOTS = [PROGRAM_FILE, TOOLS_ROOT, GLOBALS_FILE];
const SERVER_MODULE = /typeof import\("\/toolscript\/servers\/([A-Za-z_$][\w$]*)\/index"\)/g;

interface VirtualFile {
  text: string;
  version: number;
}

/**
 * The type checker itself, synchronous, run in the type-check worker: one
 * language service stays warm, lib files and the tools' declarations are
 * parsed and bound once per catalog version, and a check re-reads only the
 * program (and the skill declarations it imports, when they changed).
 */
export class TypeCheckService {
  readonly #api: typeof ts;
  readonly #files = new Map<string, VirtualFile>();
  #service: ts.LanguageService | undefined;
  #nextVersion = 1;

  constructor(api: typeof ts) {
    this.#api = api;
    this.#set(GLOBALS_FILE, SANDBOX_GLOBALS_DECLARATION);
    for (const module of BUILTIN_MODULES.values()) this.#set(module.fileName, module.text);
  }

  /** Puts the declaration tree (`renderTree` paths → text) in place of the previous one. */
  setTools(tree: Iterable<readonly [string, string]>): void {
    const paths = new Map(tree);
    for (const fileName of this.#files.keys()) {
      if (
        fileName.startsWith(TOOLS_DIR) &&
        fileName !== GLOBALS_FILE &&
        !paths.has(fileName.slice(TOOLS_DIR.length))
      ) {
        this.#files.delete(fileName);
      }
    }
    for (const [path, text] of paths) this.#set(`${TOOLS_DIR}${path}`, text);
  }

  /**
   * Undefined when the program type-checks; else an error of kind `type`.
   * `skills` holds the declaration of every skill the program imports.
   */
  check(agentSource: string, skills: ReadonlyArray<readonly [string, string]>): ExecutionError | undefined {
    const api = this.#api;
    const source = checkSource(agentSource);
    for (const [name, declaration] of skills) this.#set(`${SKILLS_DIR}${name}.d.ts`, declaration);
    this.#set(PROGRAM_FILE, source.text);
    const service = this.#languageService();
    const diagnostics = [
      ...service.getSyntacticDiagnostics(PROGRAM_FILE),
      ...service.getSemanticDiagnostics(PROGRAM_FILE),
    ].filter((diagnostic) => diagnostic.category === api.DiagnosticCategory.Error);
    return diagnostics.length === 0 ? undefined : typeError(api, agentSource, source, diagnostics);
  }

  /** A new version only when the text changed, so the service reuses what it parsed. */
  #set(fileName: string, text: string | undefined): void {
    const current = this.#files.get(fileName);
    if (text === undefined) this.#files.delete(fileName);
    else if (current?.text !== text) this.#files.set(fileName, { text, version: this.#nextVersion++ });
  }

  #languageService(): ts.LanguageService {
    if (this.#service) return this.#service;
    const api = this.#api;
    const options = compilerOptions(api);
    const libDir = dirname(api.getDefaultLibFilePath(options));
    const files = this.#files;
    const isLib = (fileName: string) => fileName.startsWith(`${libDir}/`);
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => ROOTS,
      getScriptVersion: (fileName) => String(files.get(fileName)?.version ?? 0),
      getScriptSnapshot: (fileName) => {
        const text = files.get(fileName)?.text ?? (isLib(fileName) ? api.sys.readFile(fileName) : undefined);
        return text === undefined ? undefined : api.ScriptSnapshot.fromString(text);
      },
      getCompilationSettings: () => options,
      getCurrentDirectory: () => "/",
      getDefaultLibFileName: () => join(libDir, SANDBOX_LIB),
      fileExists: (fileName) => files.has(fileName) || (isLib(fileName) && api.sys.fileExists(fileName)),
      readFile: (fileName) =>
        files.get(fileName)?.text ?? (isLib(fileName) ? api.sys.readFile(fileName) : undefined),
      // Only the virtual tree and the compiler's own lib exist: no lookups in the host's node_modules.
      directoryExists: (dir) =>
        dir === libDir || [...files.keys()].some((fileName) => fileName.startsWith(`${dir}/`)),
      getDirectories: () => [],
      useCaseSensitiveFileNames: () => true,
      resolveModuleNameLiterals: resolveWithSkills(
        api,
        () => host,
        (fileName) => files.has(fileName),
      ),
    };
    this.#service = api.createLanguageService(host, api.createDocumentRegistry(true, "/"));
    return this.#service;
  }
}

/**
 * Loose where agents' code is loose and the run would not fail (implicit `any`,
 * possibly-undefined values, `unknown` catch variables), strict where it would:
 * unknown tools and properties, wrong argument types, misspelled names.
 */
function compilerOptions(api: typeof ts): ts.CompilerOptions {
  return {
    strict: false,
    noImplicitAny: false,
    target: api.ScriptTarget.ES2022,
    module: api.ModuleKind.ESNext,
    moduleResolution: api.ModuleResolutionKind.Bundler,
    lib: [SANDBOX_LIB],
    types: [],
    noEmit: true,
    skipLibCheck: true,
    allowUnreachableCode: true,
    allowUnusedLabels: true,
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The compiler's words, with the virtual module paths of the tools turned back into `tools.<server>`. */
function diagnosticText(api: typeof ts, diagnostic: ts.Diagnostic): string {
  const text = api.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  return clip(text.replace(SERVER_MODULE, "tools.$1"), MAX_DIAGNOSTIC_CHARS);
}

function lineAndColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = source.indexOf("\n"); at !== -1 && at < offset; at = source.indexOf("\n", at + 1)) {
    line += 1;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function typeError(
  api: typeof ts,
  agentSource: string,
  source: CheckSource,
  diagnostics: readonly ts.Diagnostic[],
): ExecutionError {
  const reported = diagnostics.slice(0, MAX_REPORTED_DIAGNOSTICS).map((diagnostic) => {
    const at = lineAndColumn(agentSource, source.toSource(diagnostic.start ?? 0));
    return { ...at, code: diagnostic.code, message: diagnosticText(api, diagnostic) };
  });
  const first = reported[0] ?? { line: 1, column: 1 };
  const lineText = clip(agentSource.split("\n")[first.line - 1]?.replace(/\r$/, "") ?? "", 200);
  const gutter = `${first.line} | `;
  const caret = `${" ".repeat(gutter.length + Math.min(first.column - 1, lineText.length))}^`;
  const count = diagnostics.length === 1 ? "1 type error" : `${diagnostics.length} type errors`;
  const more =
    diagnostics.length > reported.length ? [`(${diagnostics.length - reported.length} more not shown)`] : [];
  const message = [
    `${count}; the program did not run (\`typecheck: false\` runs it unchecked):`,
    ...reported.map(
      (entry) => `line ${entry.line}, column ${entry.column}: ${entry.message} (TS${entry.code})`,
    ),
    ...more,
    `${gutter}${lineText}`,
    caret,
  ].join("\n");
  return {
    kind: "type",
    name: "TypeCheckError",
    message,
    line: first.line,
    column: first.column,
    data: { diagnostics: reported, total: diagnostics.length },
  };
}
