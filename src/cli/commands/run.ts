import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { defineCommand } from "citty";
import { stderrLogger } from "../../gateway/logger.ts";
import type { CodeLanguage } from "../../gateway/types.ts";
import { CliError } from "../cli-error.ts";
import { cliClientRequests } from "../client-requests.ts";
import { openGateway } from "../open-gateway.ts";
import { printExecution } from "../print-execution.ts";
import { COMMAND_META } from "./meta.ts";

export const runCommand = defineCommand({
  meta: COMMAND_META.run,
  args: {
    file: { type: "positional", required: true, description: "Program file (.ts, .js or .py)" },
    config: {
      type: "string",
      description: "Config file (default: ./.mcp.json, else ./toolscript.config.json)",
      valueHint: "FILE",
    },
    timeout: { type: "string", description: "Wall-clock limit in ms", valueHint: "MS" },
    typecheck: {
      type: "boolean",
      description:
        "Type-check a TypeScript program before it runs (--no-typecheck skips it; default from sandbox.typecheck)",
    },
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
    const language = languageOf(args.file);
    // Off without OTEL_* variables (the SDK is then never loaded); on, the run is one trace.
    const { startTracing } = await import("../../ops/tracing/start-tracing.ts");
    const tracing = await startTracing(process.env, stderrLogger());
    const gateway = await openGateway({
      configPath: args.config,
      showStatus: true,
      requireServers: true,
      clientRequests: cliClientRequests(),
    });
    try {
      const response = await gateway.execute({ code, language, timeoutMs, typecheck: args.typecheck });
      printExecution(response);
      if (response.error) process.exitCode = 1;
    } finally {
      await gateway.close();
      await tracing.shutdown();
    }
  },
});

function languageOf(file: string): CodeLanguage {
  const extension = extname(file);
  if (extension === ".py") return "python";
  return [".js", ".mjs", ".cjs"].includes(extension) ? "javascript" : "typescript";
}
