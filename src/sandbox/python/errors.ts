export type PythonSandboxErrorCode =
  | "python.pyodide_missing"
  | "python.process_tier_unavailable"
  | "python.snapshot_failed";

/** Python programs cannot run here; the message names what is missing and how to fix it. */
export class PythonSandboxError extends Error {
  override readonly name = "PythonSandboxError";
  readonly code: PythonSandboxErrorCode;
  readonly data: unknown;

  constructor(
    code: PythonSandboxErrorCode,
    message: string,
    options: { data?: unknown; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options.data;
  }
}
