import { relative } from "node:path";
import { defineCommand } from "citty";
import { loadConfig } from "../../config/load.ts";
import { formatUsage, UsageLedger, withUsage } from "../../llm/usage-ledger.ts";
import { CliError } from "../cli-error.ts";
import { interruptible } from "../interrupt.ts";
import { parseMaxTurns } from "../max-turns-flag.ts";
import { COMMAND_META } from "./meta.ts";

export const evalCommand = defineCommand({
  meta: COMMAND_META.eval,
  args: {
    tasks: { type: "positional", required: true, description: "Tasks file (JSONL: id, task, expect)" },
    modes: { type: "string", description: "Modes to compare (default direct,code)", valueHint: "LIST" },
    config: {
      type: "string",
      description:
        "Config file with the servers and toolscript.llm (default: ./.mcp.json, else ./toolscript.config.json)",
      valueHint: "FILE",
    },
    "max-turns": {
      type: "string",
      description: "Model requests per task at most (default 20)",
      valueHint: "N",
    },
  },
  async run({ args }) {
    const maxTurns = parseMaxTurns(args["max-turns"]);
    const [{ readEvalTasks }, { parseEvalModes }, { runEval }, { formatEvalReport }, { createModelClient }] =
      await Promise.all([
        import("../../eval/tasks-file.ts"),
        import("../../eval/modes.ts"),
        import("../../eval/run-eval.ts"),
        import("../../eval/report.ts"),
        import("../../llm/create-model-client.ts"),
      ]);
    const modes = parseEvalModes(args.modes ?? "direct,code");
    const tasks = await readEvalTasks(args.tasks);
    const config = await loadConfig({ path: args.config, cwd: process.cwd(), env: process.env });
    const llm = config.settings.llm;
    if (!llm)
      throw new CliError(
        `toolscript eval needs a model: add "llm": { "provider", "model" } to the toolscript section of ${config.file ? relative(process.cwd(), config.file) : "the config"}`,
      );
    const ledger = new UsageLedger(llm.pricing);
    const model = withUsage(createModelClient(llm, { env: process.env }), ledger);
    process.stderr.write(
      `toolscript eval: ${tasks.length} tasks × ${modes.join(", ")} with ${model.model}\n`,
    );
    const report = await interruptible((signal) =>
      runEval({
        config,
        tasks,
        modes,
        model,
        ...(maxTurns !== undefined && { maxTurns }),
        signal,
        onProgress: (progress) => {
          if (progress.type === "task_finished") {
            const { result } = progress;
            process.stderr.write(
              `  ${result.mode} ${result.id}: ${result.passed ? "passed" : "failed"} (${result.turns} turns, ${result.usage.inputTokens + result.usage.outputTokens} tokens)\n`,
            );
          }
        },
      }),
    );
    process.stdout.write(`${formatEvalReport(report)}\n`);
    process.stderr.write(`${formatUsage(ledger.totals())}\n`);
    if (report.results.some((result) => !result.passed)) process.exitCode = 1;
  },
});
