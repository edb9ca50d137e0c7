import { CodedError } from "../errors/coded-error.ts";

export type EvaluationErrorCode =
  /** The tasks file could not be read. */
  | "eval.tasks_unreadable"
  /** Lines of the tasks file are wrong: `data.issues` has `{ line, field, message }` for each. */
  | "eval.tasks_invalid"
  /** `--modes` names a mode that does not exist, or none. */
  | "eval.invalid_modes";

export class EvaluationError extends CodedError<EvaluationErrorCode> {
  override readonly name = "EvaluationError";
}
