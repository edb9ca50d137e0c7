import { defineCommand, renderUsage, runCommand as runCitty } from "citty";
import { ConfigError } from "../config/errors.ts";
import { CliError } from "./cli-error.ts";
import { forStream } from "./colour.ts";
import { auditCommand } from "./commands/audit.ts";
import { authCommand } from "./commands/auth.ts";
import { demoCommand } from "./commands/demo.ts";
import { runCommand } from "./commands/run.ts";
import { serveCommand } from "./commands/serve.ts";
import { skillsCommand } from "./commands/skills.ts";
import { toolsCommand } from "./commands/tools.ts";

export const VERSION = "0.1.0";

export const rootCommand = defineCommand({
  meta: { name: "toolscript", version: VERSION, description: "MCP gateway for code mode" },
  subCommands: {
    serve: serveCommand,
    run: runCommand,
    tools: toolsCommand,
    skills: skillsCommand,
    audit: auditCommand,
    auth: authCommand,
    demo: demoCommand,
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

/** The usage of the deepest subcommand named in `argv`. */
async function usageFor(argv: readonly string[]): Promise<string> {
  // biome-ignore lint/suspicious/noExplicitAny: citty's command types are generic over their own args.
  let command: any = rootCommand;
  // biome-ignore lint/suspicious/noExplicitAny: see above.
  let parent: any;
  for (const word of argv) {
    const subCommands = command.subCommands as Record<string, unknown> | undefined;
    if (word.startsWith("-") || !subCommands || !(word in subCommands)) break;
    parent = command;
    command = subCommands[word];
  }
  return renderUsage(command, parent);
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
