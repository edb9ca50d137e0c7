export type ProcessSandboxErrorCode =
  | "process.deno_missing"
  | "process.bubblewrap_missing"
  | "process.prlimit_missing"
  | "process.start_failed";

/** The process tier cannot run here; the message names what is missing and how to fix it. */
export class ProcessSandboxError extends Error {
  override readonly name = "ProcessSandboxError";
  readonly code: ProcessSandboxErrorCode;
  readonly data: unknown;

  constructor(
    code: ProcessSandboxErrorCode,
    message: string,
    options: { data?: unknown; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options.data;
  }
}
