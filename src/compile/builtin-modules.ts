import { ANALYSIS_DECLARATION } from "../sandbox/analysis/declaration.ts";
import { ANALYSIS_MODULE } from "../sandbox/shared/prelude/constants.ts";

/** A module built into the sandbox, as the type checker sees it. */
export interface BuiltinModuleDeclaration {
  /** Virtual path of its declaration, apart from the tools' tree and the skills. */
  fileName: string;
  text: string;
}

/** Specifier → declaration: what `import ... from "toolscript/analysis"` is checked against. */
export const BUILTIN_MODULES: ReadonlyMap<string, BuiltinModuleDeclaration> = new Map([
  [ANALYSIS_MODULE, { fileName: `/modules/${ANALYSIS_MODULE}.d.ts`, text: ANALYSIS_DECLARATION }],
]);

export function isBuiltinModule(specifier: string): boolean {
  return BUILTIN_MODULES.has(specifier);
}
