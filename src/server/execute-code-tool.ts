import { z } from "zod";
import type { Catalog } from "../catalog/catalog.ts";
import { SANDBOX_GLOBALS } from "../sandbox/shared/globals/catalog.ts";
import type { UpstreamStatus } from "../upstream/types.ts";
import { summarizeServers } from "./servers-summary.ts";

export const EXECUTE_CODE = "execute_code";

// Short descriptions and no integer bounds: these schemas are in every agent's starting context.
export const executeCodeInput = {
  code: z.string().min(1).describe("The program; top-level await works."),
  language: z.enum(["typescript", "javascript", "python"]).optional(),
  timeoutMs: z.number().positive().optional(),
  session: z.string().min(1).max(200).optional().describe("Keeps workspace files across calls."),
  context: z.unknown().optional().describe("JSON the program sees as `context`."),
  maxTokens: z.number().positive().optional().describe("Answer budget (default 2000)."),
  strategy: z.enum(["auto", "truncate", "sample", "summarize"]).optional(),
  typecheck: z.boolean().optional(),
};

/** The sandbox's globals besides `tools`, from their one definition, as one short list. */
function globalsLine(): string {
  const names = (group: string) =>
    SANDBOX_GLOBALS.filter((global) => global.group === group && global.name !== "tools")
      .map((global) => global.name)
      .join(", ");
  // The web standards by two examples: agents know them, and every token here is read on every turn.
  const web = SANDBOX_GLOBALS.filter((global) => global.group === "web").map((global) => global.name);
  const examples = ["URL", "crypto"].filter((name) => web.includes(name));
  // The error classes a program catches most; the rest are in the README and the declarations.
  const errors = SANDBOX_GLOBALS.filter((global) => global.group === "errors").map((global) => global.name);
  const caught = ["ToolError", "ValidationError", "LimitError"].filter((name) => errors.includes(name));
  // Plain names grouped, no backticks: the whole description is read by every agent on every turn.
  return `${names("gateway")}, web APIs (${examples.join(", ")}…), errors (${caught.join(", ")}…)`;
}

/** The tool description: how to write code for it, and the servers in one line each. */
export function executeCodeDescription(catalog: Catalog, statuses: readonly UpstreamStatus[]): string {
  return [
    "Run a TypeScript program calling the tools of the servers below in a sandbox; only its logs and return value come back.",
    "Call tools as `await tools.<server>.<tool>({...})` (search_tools finds them, describe_tools shows their types). A tool returns its structured output, else its JSON or text; a failure throws.",
    `Filter, join and aggregate in code (Promise.all for parallel calls) and return only what is needed. Also there: ${globalsLine()}; imports from "skills/<name>" and "toolscript/analysis" (filter, aggregate, transform, validate). No network or timers.`,
    'Python (language "python"): `await tools.<server>.<tool>(a=1)`; imports from skills.<name> and toolscript.analysis.',
    "Servers (tool count):",
    ...summarizeServers(catalog, statuses),
  ].join("\n");
}
