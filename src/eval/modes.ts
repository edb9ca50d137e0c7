import { ANSWER_STYLE } from "../agent/system-prompt.ts";
import { defaultPassThroughPrefix, MAX_PASS_THROUGH_PREFIX_LENGTH } from "../config/pass-through.ts";
import type { Config } from "../config/schema.ts";
import { EvaluationError } from "./errors.ts";

/** `direct`: every upstream tool given to the model as it is; `code`: the gateway's meta-tools. */
export const EVAL_MODES = ["direct", "code"] as const;
export type EvalMode = (typeof EVAL_MODES)[number];

/** How one mode runs: the gateway's config, the tools the agent gets, and its system prompt. */
export interface EvalModeSetup {
  mode: EvalMode;
  config: Config;
  /** The tools the model gets, by name; the agent's default (the meta-tools) when absent. */
  tools?: (name: string) => boolean;
  /** The system prompt; the agent's code-mode prompt when absent. */
  system?: string;
}

export const DIRECT_SYSTEM_PROMPT = [
  "You complete the user's task with the tools you are given. Call them as needed; read their results and call more until you have what the task asks for.",
  ANSWER_STYLE,
].join("\n\n");

/** `"direct,code"` → the modes, in that order, without repeats. */
export function parseEvalModes(text: string): EvalMode[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = names.filter((name) => !(EVAL_MODES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    const what =
      unknown.length > 0 ? `unknown mode ${unknown.map((name) => `"${name}"`).join(", ")}` : "no mode";
    throw new EvaluationError("eval.invalid_modes", `${what}: the modes are ${EVAL_MODES.join(", ")}`, {
      modes: text,
    });
  }
  return [...new Set(names as EvalMode[])];
}

/**
 * The setup of one mode. Direct mode passes every enabled server through the
 * gateway's own MCP server (`toolscript.passThrough`, each under the prefix
 * `<server>__`), so the model calls upstream tools as any MCP client would,
 * through the same policy, audit and limits, and is offered those tools only:
 * not the meta-tools.
 */
export function evalModeSetup(config: Config, mode: EvalMode): EvalModeSetup {
  if (mode === "code") return { mode, config };
  const servers = config.servers.filter((server) => !server.disabled);
  const passThrough = Object.fromEntries(
    servers.map((server) => [server.name, { prefix: prefixOf(server.name) }]),
  );
  const prefixes = Object.values(passThrough).map((entry) => entry.prefix);
  return {
    mode,
    config: { ...config, settings: { ...config.settings, passThrough } },
    tools: (name) => prefixes.some((prefix) => name.startsWith(prefix)),
    system: DIRECT_SYSTEM_PROMPT,
  };
}

/** `<server>__`, with characters a tool name may not hold replaced (a server name is any JSON key). */
function prefixOf(server: string): string {
  const prefix = defaultPassThroughPrefix(server.replace(/[^A-Za-z0-9_.-]/g, "_"));
  return prefix.length <= MAX_PASS_THROUGH_PREFIX_LENGTH
    ? prefix
    : `${prefix.slice(0, MAX_PASS_THROUGH_PREFIX_LENGTH - 2)}__`;
}
