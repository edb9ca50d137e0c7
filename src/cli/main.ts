import { defineCommand, renderUsage, runCommand as runCitty } from "citty";
import { ConfigError } from "../config/errors.ts";
import { CliError } from "./cli-error.ts";
import { forStream } from "./colour.ts";
import { COMMAND_META } from "./commands/meta.ts";

export const VERSION = "0.1.0";

export const rootCommand = defineCommand({
  meta: { name: "toolscript", version: VERSION, description: "MCP gateway for code mode" },
  // Loaded when named: `--help` and each command load only what they use (the sandbox, the
  // SDK and the search tables are most of the start-up time).
  subCommands: {
    serve: () => import("./commands/serve.ts").then((module) => module.serveCommand),
    run: () => import("./commands/run.ts").then((module) => module.runCommand),
    tools: () => import("./commands/tools.ts").then((module) => module.toolsCommand),
    skills: () => import("./commands/skills.ts").then((module) => module.skillsCommand),
    audit: () => import("./commands/audit.ts").then((module) => module.auditCommand),
    auth: () => import("./commands/auth.ts").then((module) => module.authCommand),
    demo: () => import("./commands/demo.ts").then((module) => module.demoCommand),
    agent: () => import("./commands/agent.ts").then((module) => module.agentCommand),
    eval: () => import("./commands/eval.ts").then((module) => module.evalCommand),
  },
});

/**
 * Runs the CLI and resolves to the exit code. Help goes to stdout; every
 * error goes to stderr, so stdout stays clean for MCP in `serve`. citty
 * colours its text whatever the stream: escapes are kept only for a terminal.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const rawArgs = [...argv];
  try {
    if (rawArgs.includes("--help") || rawArgs.includes("-h") || rawArgs.length === 0) {
      process.stdout.write(forStream(`${await usageFor(rawArgs)}\n`, process.stdout));
      return 0;
    }
    if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
      process.stdout.write(`${VERSION}\n`);
      return 0;
    }
    await runCitty(rootCommand, { rawArgs });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    process.stderr.write(forStream(`${formatError(error)}\n`, process.stderr));
    if (isUsageError(error))
      process.stderr.write(forStream(`\n${await usageFor(rawArgs)}\n`, process.stderr));
    return error instanceof CliError ? error.exitCode : 1;
  }
}

/**
 * The root's usage lists each command by the first line of its description,
 * read from COMMAND_META: listing them does not load them.
 */
const rootListing = defineCommand({
  meta: rootCommand.meta,
  subCommands: Object.fromEntries(
    Object.entries(COMMAND_META).map(([name, meta]) => [
      name,
      defineCommand({ meta: { name, description: meta.description.split("\n")[0] } }),
    ]),
  ),
});

/** The usage of the deepest subcommand named in `argv`. */
async function usageFor(argv: readonly string[]): Promise<string> {
  const named = argv.find((word) => !word.startsWith("-"));
  if (named === undefined || !(named in COMMAND_META)) return renderUsage(rootListing);
  // biome-ignore lint/suspicious/noExplicitAny: citty's command types are generic over their own args.
  let command: any = rootCommand;
  // biome-ignore lint/suspicious/noExplicitAny: see above.
  let parent: any;
  for (const word of argv) {
    const subCommands = await resolveLazy(command.subCommands as Record<string, unknown> | undefined);
    if (word.startsWith("-") || !subCommands || !(word in subCommands)) break;
    parent = command;
    command = await resolveLazy(subCommands[word]);
  }
  return renderUsage(command, parent);
}

/** citty's lazy values: a function (sync or async) or the value itself. */
async function resolveLazy<T>(value: T | (() => T | Promise<T>)): Promise<T> {
  return typeof value === "function" ? await (value as () => T | Promise<T>)() : value;
}

function formatError(error: unknown): string {
  if (error instanceof ConfigError || error instanceof CliError) return `toolscript: ${error.message}`;
  if (error instanceof Error && "code" in error && typeof error.code === "string") {
    return `toolscript: ${error.message} [${error.code}]`;
  }
  if (error instanceof Error) return `toolscript: ${error.message}`;
  return `toolscript: ${String(error)}`;
}

function isUsageError(error: unknown): boolean {
  return error instanceof Error && error.name === "CLIError";
}

export { exitProcess } from "./exit.ts";
