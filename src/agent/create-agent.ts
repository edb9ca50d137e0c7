import { createTokenizer } from "../output/tokenizer.ts";
import { AgentError } from "./errors.ts";
import { safeListener } from "./events.ts";
import { runAgentLoop } from "./loop.ts";
import { AGENT_META_TOOLS, codeModeSystemPrompt } from "./system-prompt.ts";
import { connectToolBridge, type ToolBridge } from "./tool-bridge.ts";
import { type Agent, type AgentOptions, DEFAULT_MAX_TURNS } from "./types.ts";

const META_TOOLS: ReadonlySet<string> = new Set(AGENT_META_TOOLS);

/**
 * A model loop over the gateway's meta-tools (code mode). Its MCP connection to
 * the gateway opens on the first run and is kept for the next ones (one default
 * session: workspace files persist between runs); `close` ends it. Runs of one
 * agent may overlap; each has its own conversation.
 */
export function createAgent(options: AgentOptions): Agent {
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new AgentError("agent.invalid_option", `maxTurns must be a whole number >= 1 (got ${maxTurns})`, {
      option: "maxTurns",
    });
  }
  const select = options.tools ?? ((name: string) => META_TOOLS.has(name));
  const tokenizer = createTokenizer(options.gateway.config.settings.output.tokenizer);
  const onEvent = safeListener(options.onEvent);
  let bridge: Promise<ToolBridge> | undefined;
  let closed = false;

  return {
    async run(task, runOptions = {}) {
      if (closed) throw new AgentError("agent.closed", "the agent is closed");
      bridge ??= connectToolBridge(options.gateway, { select });
      // A failed connection is not kept: the next run tries again.
      const tools = await bridge.catch((error: unknown) => {
        bridge = undefined;
        throw error;
      });
      return runAgentLoop(task, {
        model: options.model,
        tools,
        system: (names) => options.system ?? codeModeSystemPrompt(names),
        maxTurns,
        maxTokens: options.maxTokens,
        onEvent,
        countTokens: (text) => tokenizer.count(text),
        signal: runOptions.signal,
      });
    },
    async close() {
      closed = true;
      const open = bridge;
      bridge = undefined;
      await open?.then((tools) => tools.close()).catch(() => {});
    },
  };
}
