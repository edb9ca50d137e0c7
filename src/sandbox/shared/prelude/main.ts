/**
 * The entry of the prelude bundle (scripts/build-sandbox-globals.ts): the code
 * that runs first in every sandbox, before any agent code. `preparePrelude`
 * removes the globals agents must not have, installs the sandbox globals
 * (`console`, the web globals and error classes, `workspace`, the skill
 * import, `resources` and `prompts`) and returns the `start` function the host calls once per execution
 * with that run's host functions, tool namespace and context.
 *
 * Built-ins are used through intrinsics.ts, captured before agent code runs,
 * so agent code that replaces `JSON` or `Object` only breaks its own run.
 */
import type { RandomSource } from "../globals/crypto.ts";
import type { SandboxErrorClass } from "../globals/errors.ts";
import { installGlobals } from "../globals/install.ts";
import { installConsole } from "./console.ts";
import { REMOVED_GLOBALS } from "./constants.ts";
import { describeError, type ErrorReport } from "./describe-error.ts";
import { define, g, keys, MapClass, parse } from "./intrinsics.ts";
import { toJson } from "./json-boundary.ts";
import { installResources } from "./resources.ts";
import { type HostReference, hostErrors, run } from "./run-state.ts";
import { installSkillImport } from "./skills.ts";
import { buildTools, searchTools, type ToolNamespaceJson } from "./tools.ts";
import { installWorkspace } from "./workspace.ts";

/** What `start` resolves to; checked again by the host (isolate/run-outcome.ts, process/outcome.ts). */
export type StartReport =
  | { ok: true; json?: string; oversizedChars?: number }
  | { ok: false; error: ErrorReport };

export type Start = (
  agent: () => Promise<unknown>,
  call: HostReference,
  search: HostReference | undefined,
  log: (level: string, message: string) => void,
  toolsJson: string,
  contextJson: string | undefined,
  limitsJson: string,
  op: HostReference,
  random?: RandomSource,
) => Promise<StartReport>;

interface RunLimits {
  maxLogBytes: number;
  maxOutputBytes?: number;
}

export function preparePrelude(): Start {
  for (const name of REMOVED_GLOBALS) delete g[name];
  const installed = installGlobals(define, () => run.random);
  const errors: Record<string, SandboxErrorClass> = installed.errors;
  for (const name of keys(errors)) hostErrors[name] = errors[name]!;
  installConsole();
  installWorkspace();
  installResources(define);
  installSkillImport();
  const kinds = { ToolError: installed.errors.ToolError, PolicyError: installed.errors.PolicyError };

  return async function start(agent, call, search, log, toolsJson, contextJson, limitsJson, op, random) {
    const limits = parse(limitsJson) as RunLimits;
    run.random = random;
    run.call = call;
    run.search = search;
    run.log = log;
    run.op = op;
    run.skillModules = new MapClass();
    run.logCharsLeft = limits.maxLogBytes;
    define("tools", buildTools(parse(toolsJson) as ToolNamespaceJson));
    define("context", contextJson === undefined ? {} : parse(contextJson));
    if (search !== undefined) define("searchTools", searchTools);
    try {
      const value = await agent();
      if (value === undefined) return { ok: true };
      const json = toJson(value, "The returned value", "result");
      const max = limits.maxOutputBytes;
      // Each character is at least one byte: a value over the limit never leaves the sandbox, only its length does.
      // One that may still fit is at most max characters, and the host measures its bytes.
      if (typeof max === "number" && json.length > max) return { ok: true, oversizedChars: json.length };
      return { ok: true, json };
    } catch (error) {
      return { ok: false, error: describeError(error, kinds) };
    }
  };
}
