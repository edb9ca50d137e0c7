import { defineCommand } from "citty";
import { formatAgentEvent, formatRunSummary } from "../../agent/progress-lines.ts";
import { messageOf } from "../../errors/message-of.ts";
import { createModelClient } from "../../llm/create-model-client.ts";
import { UsageLedger, withUsage } from "../../llm/usage-ledger.ts";
import { CliError } from "../cli-error.ts";
import { cliClientRequests } from "../client-requests.ts";
import { interruptible } from "../interrupt.ts";
import { parseMaxTurns } from "../max-turns-flag.ts";
import { openGateway } from "../open-gateway.ts";
import { COMMAND_META } from "./meta.ts";

export const agentCommand = defineCommand({
  meta: COMMAND_META.agent,
  args: {
    task: { type: "positional", required: true, description: "What to do, in words" },
    config: {
      type: "string",
      description: "Config file with toolscript.llm (default: ./.mcp.json, else ./toolscript.config.json)",
      valueHint: "FILE",
    },
    "max-turns": { type: "string", description: "Model requests at most (default 20)", valueHint: "N" },
  },
  async run({ args }) {
    const maxTurns = parseMaxTurns(args["max-turns"]);
    const gateway = await openGateway({
      configPath: args.config,
      showStatus: true,
      clientRequests: cliClientRequests(),
    });
    try {
      const llm = gateway.config.settings.llm;
      const model = gateway.model;
      if (!llm || !model)
        throw new CliError(
          'toolscript agent needs a model: add "llm": { "provider": "anthropic" | "openai", "model": "..." } to the toolscript section of the config',
        );
      // Made now, not on the first request: a missing key is said before any work starts.
      createModelClient(llm, { env: process.env });
      const ledger = new UsageLedger(llm.pricing);
      const { createAgent } = await import("../../agent/create-agent.ts");
      const agent = createAgent({
        gateway,
        model: withUsage(model, ledger),
        ...(maxTurns !== undefined && { maxTurns }),
        onEvent: (event) => {
          const line = formatAgentEvent(event);
          if (line !== undefined) process.stderr.write(`${line}\n`);
        },
      });
      try {
        // Ctrl-C cancels the run (the model request and the program in flight); a second one exits.
        const result = await interruptible((signal) => agent.run(args.task, { signal }));
        process.stdout.write(`${result.answer}\n`);
        const usage = ledger.totals();
        const cost = usage.costUsd === undefined ? undefined : `$${usage.costUsd.toFixed(4)}`;
        process.stderr.write(`${formatRunSummary(result, cost)}\n`);
        if (result.error) {
          const cause = result.error.cause ?? result.error;
          process.stderr.write(`toolscript agent: ${messageOf(cause)}\n`);
        }
        if (result.stopped === "cancelled") process.exitCode = 130;
        else if (result.stopped !== "answer") process.exitCode = 1;
      } finally {
        await agent.close();
      }
    } finally {
      await gateway.close();
    }
  },
});
