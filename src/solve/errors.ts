import { CodedError } from "../errors/coded-error.ts";

export type SolveErrorCode =
  /** No model is configured and the client cannot answer sampling requests. */
  | "solve.no_model"
  /** The model's answers did not pass the checks (two tries): `data.code` and `data.why` say how. */
  | "solve.generation_failed"
  /** A generated tool needed an approval before its first run and did not get one. */
  | "solve.not_approved"
  /** The request itself is wrong: empty task, arguments that are not an object. */
  | "solve.bad_request";

/** A `solve_task` that could not run: the request, the model, or the approval. */
export class SolveError extends CodedError<SolveErrorCode> {
  override readonly name = "SolveError";
}
