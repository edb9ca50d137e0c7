/**
 * The shape of every domain error (after the MCP SDK's `SdkError`): a string
 * `code` programs branch on, `data` with the details, and the original `cause`.
 * Each domain declares its own subclass, name and codes.
 */
export abstract class CodedError<Code extends string> extends Error {
  readonly code: Code;
  readonly data: Record<string, unknown>;

  constructor(
    code: Code,
    message: string,
    data: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data = data;
  }
}
