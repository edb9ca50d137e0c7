import type { AgentEvent } from "../agent/events.ts";
import type { Config } from "../config/schema.ts";
import { Gateway } from "../gateway/gateway.ts";
import type { Logger } from "../gateway/logger.ts";
import type { ModelClient } from "../llm/types.ts";
import type { UpstreamStatus } from "../upstream/types.ts";
import { type EvalMode, evalModeSetup } from "./modes.ts";
import { type EvalTaskResult, runEvalTask } from "./run-task.ts";
import type { EvalTask } from "./tasks-file.ts";

/** What an eval reports as it goes: a mode's gateway started, a task started or ended, agent events. */
export type EvalProgress =
  | { type: "mode_started"; mode: EvalMode; statuses: UpstreamStatus[] }
  | { type: "task_started"; mode: EvalMode; id: string }
  | { type: "task_finished"; result: EvalTaskResult }
  | { type: "agent"; mode: EvalMode; id: string; event: AgentEvent };

export interface RunEvalOptions {
  config: Config;
  tasks: readonly EvalTask[];
  modes: readonly EvalMode[];
  model: ModelClient;
  /** Turns for tasks that set none (the agent's default when absent). */
  maxTurns?: number;
  signal?: AbortSignal;
  onProgress?: (progress: EvalProgress) => void;
  /** The gateways' logger (silent by default). */
  logger?: Logger;
}

export interface EvalReport {
  /** The model that answered, as its client names it. */
  model: string;
  modes: EvalMode[];
  /** Every task in every mode, mode by mode, in file order; a cancelled eval stops early. */
  results: EvalTaskResult[];
}

/**
 * Runs every task in every mode with the same model, one mode at a time: each
 * mode gets its own gateway (direct mode's passes the servers through), started
 * once for all its tasks and closed after them. Tasks run one after another so
 * their times compare. The signal cancels the task in flight and skips the rest.
 */
export async function runEval(options: RunEvalOptions): Promise<EvalReport> {
  const results: EvalTaskResult[] = [];
  const progress = (event: EvalProgress) => {
    try {
      options.onProgress?.(event);
    } catch {
      // Progress is advisory: a broken printer must not end the eval.
    }
  };
  for (const mode of options.modes) {
    if (options.signal?.aborted) break;
    const setup = evalModeSetup(options.config, mode);
    const gateway = new Gateway({ config: setup.config, ...(options.logger && { logger: options.logger }) });
    try {
      progress({ type: "mode_started", mode, statuses: await gateway.start() });
      for (const task of options.tasks) {
        if (options.signal?.aborted) break;
        progress({ type: "task_started", mode, id: task.id });
        const result = await runEvalTask(task, {
          gateway,
          setup,
          model: options.model,
          maxTurns: options.maxTurns,
          signal: options.signal,
          onEvent: (event) => progress({ type: "agent", mode, id: task.id, event }),
        });
        results.push(result);
        progress({ type: "task_finished", result });
      }
    } finally {
      await gateway.close();
    }
  }
  return { model: options.model.model, modes: [...options.modes], results };
}
