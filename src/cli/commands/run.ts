import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { defineCommand } from "citty";
import { CliError } from "../cli-error.ts";
import { openGateway } from "../open-gateway.ts";
import { printExecution } from "../print-execution.ts";

export const runCommand = defineCommand({
  meta: { name: "run", description: "Run one program against the configured servers and print its output" },
  args: {
    file: { type: "positional", required: true, description: "Program file (.ts or .js)" },
    config: {
      type: "string",
      description: "Config file (default: ./.mcp.json, else ./toolscript.config.json)",
      valueHint: "FILE",
    },
    timeout: { type: "string", description: "Wall-clock limit in ms", valueHint: "MS" },
  },
  async run({ args }) {
    let code: string;
    try {
      code = await readFile(args.file, "utf8");
    } catch (error) {
      throw new CliError(`cannot read ${args.file}: ${(error as Error).message}`);
    }
    const timeoutMs = args.timeout === undefined ? undefined : Number(args.timeout);
    if (timeoutMs !== undefined && !(timeoutMs > 0))
      throw new CliError(`--timeout expects milliseconds, got "${args.timeout}"`);
    const language = [".js", ".mjs", ".cjs"].includes(extname(args.file)) ? "javascript" : "typescript";
    const gateway = await openGateway({ configPath: args.config, showStatus: true, requireServers: true });
    try {
      const response = await gateway.execute({ code, language, timeoutMs });
      printExecution(response);
      if (response.error) process.exitCode = 1;
    } finally {
      await gateway.close();
    }
  },
});
