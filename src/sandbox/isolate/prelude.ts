/**
 * The code that runs first in every sandbox (both tiers), before any agent
 * code. It is written as typed TypeScript in src/sandbox/shared/prelude/ and
 * bundled at build time (scripts/build-sandbox-globals.ts) into
 * prelude.generated.ts; this file only wraps that bundle in a closure that
 * evaluates to the `start` function the host calls once per execution with
 * that run's host functions, tool namespace and context. Nothing of the bundle
 * but the globals it installs is visible to agent code.
 */

import { BUNDLE_GLOBAL_NAME } from "../shared/globals/bundle-name.ts";
import { SANDBOX_GLOBALS as SANDBOX_GLOBAL_DEFINITIONS } from "../shared/globals/catalog.ts";
import { SKILL_IMPORT_FUNCTION } from "../shared/prelude/constants.ts";
import { PRELUDE_BUNDLE } from "./prelude.generated.ts";

export {
  MAX_REPORT_CHARS,
  PRELUDE_FILE_NAME,
  REMOVED_GLOBALS,
  SKILL_FILE_PREFIX,
  SKILL_IMPORT_FUNCTION,
} from "../shared/prelude/constants.ts";

/** Globals the sandbox adds to the standard built-ins (`searchTools` only when the bridge offers search). */
export const SANDBOX_GLOBALS: readonly string[] = [
  ...SANDBOX_GLOBAL_DEFINITIONS.map((global) => global.name),
  SKILL_IMPORT_FUNCTION,
];

/** The prelude script: its completion value is `start` (shared/prelude/main.ts). */
export const PRELUDE_SOURCE = `"use strict";
(function () {
${PRELUDE_BUNDLE.replace(/^"use strict";\n/, "")}
return ${BUNDLE_GLOBAL_NAME}.preparePrelude();
})();
`;
