import { PYTHON_GLOBALS_STUB } from "../catalog/declaration/python/globals-stub.ts";
import { SANDBOX_GLOBALS } from "../sandbox/shared/globals/catalog.ts";

/** The globals whose Python stub is PYTHON_GLOBALS_STUB (one stub declares them together). */
const PYTHON_STUBBED = new Set(["resources", "prompts"]);

/**
 * What describe_tools shows for the name of a sandbox global (`resources`,
 * `prompts`, `workspace`, `searchTools`) instead of a tool: its TypeScript
 * declaration from the globals' one definition, or with `python` the `.pyi`
 * of the Python driver's globals. Undefined for any other name; a global with
 * no Python stub says so.
 */
export function describeGlobal(name: string, python: boolean): string | undefined {
  const global = SANDBOX_GLOBALS.find(
    (candidate) => candidate.name === name && candidate.group === "gateway" && candidate.declaration !== "",
  );
  if (!global) return undefined;
  if (!python) return `// ${global.usage} (a global)\n${global.declaration}`;
  if (!PYTHON_STUBBED.has(name))
    return `# ${name}: a global with no Python stub; its TypeScript declaration:\n# ${global.declaration.split("\n").join("\n# ")}`;
  return `# the resources and prompts globals\n${PYTHON_GLOBALS_STUB.trimEnd()}`;
}
