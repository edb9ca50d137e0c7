import type { CallToolResult } from "@modelcontextprotocol/server";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { messageOf } from "../../errors/message-of.ts";

/**
 * Codes whose `data` is part of the contract (the URI not found; the URL to open; the
 * client capabilities the call requires), so it is kept.
 */
const CODES_WITH_SAFE_DATA = new Set<number>([ProtocolErrorCode.ResourceNotFound, -32042, -32021]);

// The SDKs prefix their own messages: 1.x "MCP error -32602: ...", which the front end would double.
const SDK_PREFIX = /^MCP error -?\d+: /;

/** A JSON-RPC error as an upstream answered it, if `error` is one (1.x `McpError` or 2.x `ProtocolError`). */
function jsonRpcError(error: unknown): { code: number; message: string; data?: unknown } | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof code !== "number" || !Number.isInteger(code) || typeof message !== "string") return undefined;
  return { code, message: message.replace(SDK_PREFIX, ""), ...(data === undefined ? {} : { data }) };
}

/**
 * For a front-end request other than `tools/call`: the upstream's JSON-RPC code and
 * message; its `data` only when the code defines it. Anything else (the server is down,
 * the gateway refused) is an internal error with its message.
 */
export function toProtocolError(error: unknown, server: string): ProtocolError {
  if (error instanceof ProtocolError && !CODES_WITH_SAFE_DATA.has(error.code)) {
    return new ProtocolError(error.code, error.message);
  }
  const rpc = jsonRpcError(error);
  if (rpc !== undefined) {
    return new ProtocolError(
      rpc.code,
      rpc.message,
      CODES_WITH_SAFE_DATA.has(rpc.code) ? rpc.data : undefined,
    );
  }
  return new ProtocolError(ProtocolErrorCode.InternalError, `${server}: ${messageOf(error)}`);
}

/**
 * For `tools/call`: a JSON-RPC error from the upstream stays one (unknown tool, invalid
 * arguments); any other failure (the gateway's policy or limits, the server down) is a
 * tool error result, as MCP asks for failures the model should see and may act on.
 */
export function toolCallFailure(error: unknown, server: string): CallToolResult {
  if (jsonRpcError(error) !== undefined) throw toProtocolError(error, server);
  return { content: [{ type: "text", text: messageOf(error) }], isError: true };
}
