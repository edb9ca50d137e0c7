import { CliError } from "./cli-error.ts";

/** `--max-turns N` of `agent` and `eval`: undefined when absent, else a whole number >= 1. */
export function parseMaxTurns(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const turns = Number(text);
  if (!Number.isInteger(turns) || turns < 1)
    throw new CliError(`--max-turns expects a whole number >= 1, got "${text}"`);
  return turns;
}
