import { readFile } from "node:fs/promises";
import { defineCommand } from "citty";
import { formatExecuteAnswer } from "../../server/format-answer.ts";
import { CliError } from "../cli-error.ts";
import { demoSetup } from "../demo-setup.ts";
import { openGateway } from "../open-gateway.ts";
import { formatBytes } from "../print-execution.ts";
import { COMMAND_META } from "./meta.ts";

export const demoCommand = defineCommand({
  meta: COMMAND_META.demo,
  async run() {
    const setup = demoSetup();
    process.stderr.write(
      "toolscript demo: starting server-filesystem, server-memory and server-everything…\n",
    );
    const gateway = await openGateway({ config: setup.config, showStatus: true });
    try {
      const notReady = gateway.statuses().filter((status) => status.state !== "ready");
      if (notReady.length > 0) {
        throw new CliError(
          `demo servers failed to start: ${notReady.map((status) => status.server).join(", ")}`,
        );
      }
      const code = await readFile(setup.programFile, "utf8");
      process.stderr.write(
        `running ${setup.programFile} (${code.split("\n").length} lines of TypeScript)…\n\n`,
      );
      const response = await gateway.execute({ code, context: { dataDir: setup.dataDir } });
      const answer = formatExecuteAnswer(response);
      const text = answer.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      process.stdout.write(`${text}\n\n`);
      if (response.error) throw new CliError("the demo program failed");
      const returned = Buffer.byteLength(text);
      process.stdout.write(
        [
          "What it cost:",
          `  tool calls made:                    ${response.toolCalls}`,
          `  tool results kept in the sandbox:   ${formatBytes(response.toolResultBytes)}`,
          `  returned to the model:              ${formatBytes(returned)}`,
          `  kept out of the model's context:    ${(100 * (1 - returned / Math.max(1, response.toolResultBytes + returned))).toFixed(2)}%`,
          ...(response.tokens
            ? [
                `  tokens to the model (${response.tokens.tokenizer}): ${response.tokens.returned + response.tokens.code} (code ${response.tokens.code}, answer ${response.tokens.returned})`,
                `  direct tool calling would cost:     ~${response.tokens.directEstimate} tokens (definitions, arguments, full results)`,
              ]
            : []),
          `  time:                               ${Math.round(response.durationMs)} ms`,
          "",
        ].join("\n"),
      );
    } finally {
      await gateway.close();
      setup.cleanup();
    }
  },
});
