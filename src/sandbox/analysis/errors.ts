/**
 * The one error of the analysis helpers: a bad argument, named by where it is
 * (`conditions[1].op`, `metrics.total`, `rows[3]`) and what is wrong there.
 * The Python twin (python/lib/toolscript/analysis.py) raises the same message.
 */
export class AnalysisError extends Error {
  /** Always `analysis.invalid_input`: every failure is a bad argument, never a fault of the helper. */
  readonly code: string;
  /** `{ path }`: where the bad input is, as written in the message. */
  readonly data: { path: string };

  constructor(path: string, what: string, options?: { cause?: unknown }) {
    super(`${path}: ${what}`, options);
    this.name = "AnalysisError";
    this.code = "analysis.invalid_input";
    this.data = { path };
  }
}
