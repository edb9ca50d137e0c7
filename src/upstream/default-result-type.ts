import { isJSONRPCResultResponse, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";

/**
 * On a 2026-07-28 connection the SDK refuses a result without `resultType`,
 * while the spec's conformance suite expects a client to read a missing one
 * as `complete` (SEP-2322: the default). Installed after `connect`, in front
 * of the SDK's handler, it fills in `complete` for such results. A result
 * that carries `inputRequests` is left alone: it is not plainly complete.
 */
export function defaultResultTypeToComplete(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => deliver(withResultType(message), extra);
}

export function withResultType(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCResultResponse(message)) return message;
  const result: unknown = message.result;
  if (typeof result !== "object" || result === null || Array.isArray(result)) return message;
  if ("resultType" in result || "inputRequests" in result) return message;
  return { ...message, result: { ...result, resultType: "complete" } };
}
