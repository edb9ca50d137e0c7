import { createAgent } from "../agent/create-agent.ts";
import type { AgentEventListener } from "../agent/events.ts";
import type { AgentStop, AgentUsage } from "../agent/types.ts";
import type { Gateway } from "../gateway/gateway.ts";
import type { ModelClient } from "../llm/types.ts";
import { checkAnswer } from "./expectation.ts";
import type { EvalMode, EvalModeSetup } from "./modes.ts";
import type { EvalTask } from "./tasks-file.ts";

export interface EvalTaskResult {
  id: string;
  mode: EvalMode;
  /** The run answered and the answer met the expectation. */
  passed: boolean;
  /** Why it did not pass: the failed checks, or how the run stopped. */
  failures: string[];
  answer: string;
  stopped: AgentStop;
  turns: number;
  usage: AgentUsage;
  toolCalls: number;
  failedToolCalls: number;
  durationMs: number;
  /** The error's message when the run stopped on one. */
  error?: string;
}

export interface RunEvalTaskOptions {
  /** A started gateway made from `setup.config`. */
  gateway: Gateway;
  setup: EvalModeSetup;
  model: ModelClient;
  /** The limit for tasks that set none. */
  maxTurns?: number | undefined;
  signal?: AbortSignal | undefined;
  onEvent?: AgentEventListener | undefined;
}

/** Runs one task in one mode with a fresh agent (its own conversation) and judges the answer. */
export async function runEvalTask(task: EvalTask, options: RunEvalTaskOptions): Promise<EvalTaskResult> {
  const { setup } = options;
  const maxTurns = task.maxTurns ?? options.maxTurns;
  const agent = createAgent({
    gateway: options.gateway,
    model: options.model,
    ...(maxTurns !== undefined && { maxTurns }),
    ...(setup.tools && { tools: setup.tools }),
    ...(setup.system !== undefined && { system: setup.system }),
    ...(options.onEvent && { onEvent: options.onEvent }),
  });
  try {
    const run = await agent.run(task.task, options.signal ? { signal: options.signal } : {});
    const failures =
      run.stopped === "answer" ? checkAnswer(run.answer, task.expect) : [STOPPED[run.stopped] ?? run.stopped];
    return {
      id: task.id,
      mode: setup.mode,
      passed: failures.length === 0,
      failures,
      answer: run.answer,
      stopped: run.stopped,
      turns: run.turns,
      usage: run.usage,
      toolCalls: run.toolCalls.length,
      failedToolCalls: run.toolCalls.filter((call) => call.isError).length,
      durationMs: run.durationMs,
      ...(run.error && { error: run.error.message }),
    };
  } finally {
    await agent.close();
  }
}

const STOPPED: Partial<Record<AgentStop, string>> = {
  max_turns: "no answer within the turn limit",
  cancelled: "cancelled",
  error: "the run failed",
};
