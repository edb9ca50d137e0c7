/** A user-facing CLI failure: printed as one line on stderr, exit code 1 (or `exitCode`). */
export class CliError extends Error {
  override readonly name = "CliError";
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}
