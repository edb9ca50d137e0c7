export type ServerErrorCode = "server.no_token" | "server.listen_failed" | "server.bad_address";

/** A front end that cannot start as configured. */
export class ServerError extends Error {
  override readonly name = "ServerError";
  readonly code: ServerErrorCode;
  readonly data: Record<string, unknown>;

  constructor(
    code: ServerErrorCode,
    message: string,
    data: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data = data;
  }
}
