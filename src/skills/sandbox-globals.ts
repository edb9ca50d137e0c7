import { sandboxGlobalsDeclaration } from "../sandbox/shared/globals/catalog.ts";

/**
 * The globals code sees in the sandbox, as an ambient declaration file, so a
 * skill is type-checked against what it will really have: no DOM, no Node,
 * no timers. Derived from the one definition of the globals
 * (sandbox/shared/globals/catalog.ts); `tools` comes from the catalog
 * (catalog/declaration/tree.ts).
 */
export const SANDBOX_GLOBALS_DECLARATION = sandboxGlobalsDeclaration();
