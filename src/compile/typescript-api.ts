import { createRequire } from "node:module";
import type ts from "typescript";
import { BUILTIN_MODULES } from "./builtin-modules.ts";
import { SKILL_SPECIFIER } from "./skill-imports.ts";

/** The one standard library the sandbox has: ES2023, no DOM, no Node. */
export const SANDBOX_LIB = "lib.es2023.d.ts";

/** `import ... from "skills/<name>"` resolves to this virtual declaration file. */
export const SKILLS_DIR = "/skills/";

const require = createRequire(import.meta.url);
let typescript: Promise<typeof ts> | undefined;

/**
 * The compiler loads on first use: a gateway that never type-checks never pays
 * for it (~1 s, ~50 MB). By `require`, not `import()`: the ESM loader would
 * first lex its 9 MB of CommonJS for export names, ~9 MB more resident.
 */
export function loadTypeScript(): Promise<typeof ts> {
  typescript ??= Promise.resolve().then(() => require("typescript") as typeof ts);
  return typescript;
}

/** Where a 0-based offset of `file` is, 1-based. */
export function positionIn(
  file: ts.SourceFile | undefined,
  start: number | undefined,
): { line?: number; column?: number } {
  if (!file || start === undefined) return {};
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  return { line: line + 1, column: character + 1 };
}

/**
 * Module resolution for a virtual tree (`host` read when resolving: it is usually the host being built): `skills/<name>` is the saved skill's declaration when
 * `hasFile` knows it (else unresolved), a built-in module (`toolscript/analysis`) its declaration
 * (builtin-modules.ts); everything else resolves as usual (`./x.js` -> `./x.d.ts`).
 */
export function resolveWithSkills(
  api: typeof ts,
  host: () => ts.ModuleResolutionHost,
  hasFile: (fileName: string) => boolean,
): NonNullable<ts.CompilerHost["resolveModuleNameLiterals"]> {
  return (literals, containingFile, _redirected, compilerOptions) =>
    literals.map((literal) => {
      const skill = SKILL_SPECIFIER.exec(literal.text)?.[1];
      const builtin = BUILTIN_MODULES.get(literal.text)?.fileName;
      if (skill === undefined && builtin === undefined)
        return api.resolveModuleName(literal.text, containingFile, compilerOptions, host());
      const resolvedFileName = builtin ?? `${SKILLS_DIR}${skill}.d.ts`;
      return hasFile(resolvedFileName)
        ? {
            resolvedModule: {
              resolvedFileName,
              extension: api.Extension.Dts,
              isExternalLibraryImport: false,
            },
          }
        : { resolvedModule: undefined };
    });
}
