// `toolscript/eval`: the same tasks run with every upstream tool given to the model directly and in code mode.
export { EvaluationError, type EvaluationErrorCode } from "./errors.ts";
export { checkAnswer } from "./expectation.ts";
export {
  DIRECT_SYSTEM_PROMPT,
  EVAL_MODES,
  type EvalMode,
  type EvalModeSetup,
  evalModeSetup,
  parseEvalModes,
} from "./modes.ts";
export { type EvalModeSummary, formatEvalReport, summarizeModes } from "./report.ts";
export { type EvalProgress, type EvalReport, type RunEvalOptions, runEval } from "./run-eval.ts";
export { type EvalTaskResult, type RunEvalTaskOptions, runEvalTask } from "./run-task.ts";
export {
  type EvalExpectation,
  type EvalTask,
  type EvalTaskIssue,
  parseEvalTasks,
  readEvalTasks,
} from "./tasks-file.ts";
