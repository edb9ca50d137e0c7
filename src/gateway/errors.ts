export type GatewayErrorCode = "gateway.closed" | "gateway.runtime_unavailable" | "gateway.store_unavailable";

export class GatewayError extends Error {
  override readonly name = "GatewayError";
  readonly code: GatewayErrorCode;
  readonly data: Record<string, unknown>;

  constructor(
    code: GatewayErrorCode,
    message: string,
    data: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data = data;
  }
}
