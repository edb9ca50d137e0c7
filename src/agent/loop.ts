import { messageOf } from "../errors/message-of.ts";
import type {
  ModelClient,
  ModelMessage,
  ModelResponse,
  ModelTool,
  ModelToolResult,
  ModelToolUse,
} from "../llm/types.ts";
import { AgentError } from "./errors.ts";
import type { AgentEventListener } from "./events.ts";
import { summarizeToolInput } from "./input-summary.ts";
import type { ToolBridge } from "./tool-bridge.ts";
import type { AgentRunResult, AgentStop, AgentToolCall, AgentUsage } from "./types.ts";

/** Results longer than this are not tokenized for progress: counting must not slow the run. */
export const MAX_COUNTED_RESULT_CHARS = 20_000;

export interface AgentLoopOptions {
  model: ModelClient;
  tools: ToolBridge;
  /** The system prompt, from the names of the tools offered this run. */
  system: (toolNames: readonly string[]) => string;
  maxTurns: number;
  maxTokens?: number | undefined;
  onEvent: AgentEventListener;
  /** Tokens of a result text, for progress; none when absent. */
  countTokens?: ((text: string) => number) | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * One run: the task as the first user turn, then model turns until one asks for
 * no tool. The tool uses of a turn run in order and their results go back
 * together in the next user turn. Ends at `maxTurns` model requests (the tools
 * of a last turn are not run: nobody would read their results), on the signal,
 * or when a model request fails.
 */
export async function runAgentLoop(task: string, options: AgentLoopOptions): Promise<AgentRunResult> {
  const { model, tools, maxTurns, onEvent, signal } = options;
  const started = performance.now();
  const usage: AgentUsage = { requests: 0, inputTokens: 0, outputTokens: 0 };
  const toolCalls: AgentToolCall[] = [];
  let turns = 0;
  let lastText = "";

  const finish = (stopped: AgentStop, note?: string, error?: Error): AgentRunResult => {
    const answer = note === undefined ? lastText : [lastText, `(${note})`].filter(Boolean).join("\n\n");
    onEvent({ type: "answer", text: answer, stopped });
    return {
      answer,
      stopped,
      turns,
      usage,
      toolCalls,
      durationMs: performance.now() - started,
      ...(error && { error }),
    };
  };
  const cancelled = () => finish("cancelled", "cancelled");

  if (signal?.aborted) return cancelled();
  let offered: ModelTool[];
  try {
    offered = await tools.list();
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    return finish("error", `stopped: ${failure.message}`, failure);
  }
  const system = options.system(offered.map((tool) => tool.name));
  const messages: ModelMessage[] = [{ role: "user", content: [{ type: "text", text: task }] }];

  for (;;) {
    if (turns >= maxTurns) {
      return finish(
        "max_turns",
        `stopped: the limit of ${maxTurns} model turns was reached before an answer`,
      );
    }
    turns++;
    const turn = turns;
    onEvent({ type: "turn_started", turn });
    const turnStarted = performance.now();
    let response: ModelResponse;
    try {
      response = await model.complete(
        { system, messages, tools: offered, maxTokens: options.maxTokens },
        { signal },
      );
    } catch (error) {
      if (signal?.aborted) return cancelled();
      const failure = new AgentError(
        "agent.model_failed",
        `the model request failed: ${messageOf(error)}`,
        { turn, provider: model.provider, model: model.model },
        { cause: error },
      );
      return finish("error", `stopped: ${failure.message}`, failure);
    }
    usage.requests++;
    usage.inputTokens += response.usage.inputTokens;
    usage.outputTokens += response.usage.outputTokens;
    const uses = response.content.filter((block): block is ModelToolUse => block.type === "tool_use");
    lastText = textOf(response);
    onEvent({
      type: "turn_finished",
      turn,
      usage: response.usage,
      stopReason: response.stopReason,
      toolUses: uses.length,
      durationMs: performance.now() - turnStarted,
    });
    if (signal?.aborted) return cancelled();
    if (uses.length === 0) return finish("answer");
    messages.push({ role: "assistant", content: response.content });
    if (turns >= maxTurns) continue;

    const results: ModelToolResult[] = [];
    for (const use of uses) {
      if (signal?.aborted) return cancelled();
      onEvent({
        type: "tool_started",
        turn,
        id: use.id,
        name: use.name,
        summary: summarizeToolInput(use.input),
      });
      const callStarted = performance.now();
      let result: ModelToolResult;
      try {
        result = await tools.call(use, signal);
      } catch (error) {
        if (signal?.aborted) return cancelled();
        result = { type: "tool_result", toolUseId: use.id, content: messageOf(error), isError: true };
      }
      const call: AgentToolCall = {
        name: use.name,
        durationMs: performance.now() - callStarted,
        isError: result.isError === true,
        resultChars: result.content.length,
      };
      toolCalls.push(call);
      const tokens =
        options.countTokens && call.resultChars <= MAX_COUNTED_RESULT_CHARS
          ? options.countTokens(result.content)
          : undefined;
      onEvent({
        type: "tool_finished",
        turn,
        id: use.id,
        ...call,
        ...(tokens !== undefined && { resultTokens: tokens }),
      });
      results.push(result);
    }
    messages.push({ role: "user", content: results });
  }
}

function textOf(response: ModelResponse): string {
  return response.content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n")
    .trim();
}
