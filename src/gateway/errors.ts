import { CodedError } from "../errors/coded-error.ts";

export type GatewayErrorCode = "gateway.closed" | "gateway.runtime_unavailable";

export class GatewayError extends CodedError<GatewayErrorCode> {
  override readonly name = "GatewayError";
}
