import { formatDuration } from "../agent/progress-lines.ts";
import { formatCount } from "../output/format-number.ts";
import { markdownTable } from "../text/markdown-table.ts";
import type { EvalMode } from "./modes.ts";
import type { EvalReport } from "./run-eval.ts";
import type { EvalTaskResult } from "./run-task.ts";

/** One mode's totals over its tasks; means are per task. */
export interface EvalModeSummary {
  mode: EvalMode;
  tasks: number;
  passed: number;
  meanInputTokens: number;
  meanOutputTokens: number;
  meanTurns: number;
  meanToolCalls: number;
  meanDurationMs: number;
}

export function summarizeModes(report: EvalReport): EvalModeSummary[] {
  return report.modes.map((mode) => {
    const results = report.results.filter((result) => result.mode === mode);
    const mean = (value: (result: EvalTaskResult) => number) =>
      results.length === 0 ? 0 : results.reduce((sum, result) => sum + value(result), 0) / results.length;
    return {
      mode,
      tasks: results.length,
      passed: results.filter((result) => result.passed).length,
      meanInputTokens: mean((result) => result.usage.inputTokens),
      meanOutputTokens: mean((result) => result.usage.outputTokens),
      meanTurns: mean((result) => result.turns),
      meanToolCalls: mean((result) => result.toolCalls),
      meanDurationMs: mean((result) => result.durationMs),
    };
  });
}

/**
 * The eval as Markdown (the bench's table format): one row per mode, one per
 * task and mode, and, with both modes, code mode's input tokens as a share of
 * direct mode's. Returned, not printed: the CLI writes it to stdout.
 */
export function formatEvalReport(report: EvalReport): string {
  const summaries = summarizeModes(report);
  const parts = [
    markdownTable(
      `Eval by mode (${report.model})`,
      ["mode", "passed", "mean tokens in", "mean tokens out", "mean turns", "mean tool calls", "mean time"],
      summaries.map((summary) => [
        summary.mode,
        `${summary.passed}/${summary.tasks}`,
        formatCount(summary.meanInputTokens),
        formatCount(summary.meanOutputTokens),
        summary.meanTurns.toFixed(1),
        summary.meanToolCalls.toFixed(1),
        formatDuration(summary.meanDurationMs),
      ]),
    ),
    markdownTable(
      "Eval by task",
      ["task", "mode", "result", "tokens in", "tokens out", "turns", "tool calls", "time"],
      report.results.map((result) => [
        result.id,
        result.mode,
        result.passed ? "pass" : `FAIL: ${result.failures.join("; ")}`,
        formatCount(result.usage.inputTokens),
        formatCount(result.usage.outputTokens),
        result.turns,
        result.failedToolCalls > 0
          ? `${result.toolCalls} (${result.failedToolCalls} failed)`
          : result.toolCalls,
        formatDuration(result.durationMs),
      ]),
    ),
  ];
  const direct = summaries.find((summary) => summary.mode === "direct");
  const code = summaries.find((summary) => summary.mode === "code");
  if (direct && code && direct.meanInputTokens > 0) {
    const share = (100 * code.meanInputTokens) / direct.meanInputTokens;
    parts.push(
      `\nCode mode read ${percent(share)}% of the input tokens direct mode read (mean per task), and passed ${code.passed} of ${code.tasks} tasks against direct mode's ${direct.passed} of ${direct.tasks}.\n`,
    );
  }
  return parts.join("");
}

/** A share in percent, with two significant digits when under 10% (0.39%, not 0%). */
function percent(share: number): string {
  return share >= 10 || share === 0 ? share.toFixed(0) : share.toPrecision(2);
}
