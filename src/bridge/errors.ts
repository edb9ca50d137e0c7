import type { HostErrorData } from "../sandbox/types.ts";

/**
 * Errors a tool call raises toward sandboxed code. `name` is the class the
 * code sees (`ToolError`, `ValidationError`, ...), so it can catch by type.
 */
export type BridgeErrorName = "ToolError" | "ValidationError" | "LimitError" | "PolicyError";

export type BridgeErrorCode =
  | "tool.failed"
  | "tool.unknown"
  | "tool.invalid_args"
  | "tool.unavailable"
  | "tool.timeout"
  | "tool.cancelled"
  | "tool.result_too_large"
  | "server.unknown"
  | "resource.not_found"
  | "limit.tool_calls"
  | "limit.argument_bytes"
  | "limit.not_serializable"
  | "policy.denied"
  | "policy.declined"
  | "policy.no_approver"
  | "anomaly.blocked"
  | "anomaly.no_approver"
  | "anomaly.declined";

export class BridgeError extends Error implements HostErrorData {
  override readonly name: BridgeErrorName;
  readonly code: BridgeErrorCode;
  readonly data: Record<string, unknown>;

  constructor(
    name: BridgeErrorName,
    code: BridgeErrorCode,
    message: string,
    data: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = name;
    this.code = code;
    this.data = data;
  }
}
