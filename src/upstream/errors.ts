export type UpstreamErrorCode =
  | "upstream.unavailable"
  | "upstream.connect_failed"
  | "upstream.timeout"
  | "upstream.cancelled"
  | "upstream.call_failed"
  | "upstream.unknown_server"
  | "upstream.rate_limited"
  | "upstream.message_too_large"
  | "upstream.closed";

/** Any failure talking to an upstream MCP server. `data.server` names it. */
export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  readonly code: UpstreamErrorCode;
  readonly data: { server: string; [key: string]: unknown };

  constructor(
    code: UpstreamErrorCode,
    message: string,
    data: { server: string; [key: string]: unknown },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data = data;
  }
}
