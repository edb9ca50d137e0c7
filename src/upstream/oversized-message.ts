import { INTERNAL_ERROR, type JSONRPCMessage } from "@modelcontextprotocol/client";
import type { OversizedLine } from "./line-reader.ts";

/** Marks the error answer that stands in for an oversized upstream message. */
export const MESSAGE_TOO_LARGE = "toolscript.message_too_large";

export interface MessageTooLargeData {
  reason: typeof MESSAGE_TOO_LARGE;
  bytes: number;
  limit: number;
  /** The message was cut once over the limit: `bytes` is a lower bound. */
  atLeast?: boolean;
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":7,"result"` — id first (most SDKs but the TypeScript one). */
const HEAD_ID = new RegExp(
  String.raw`^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*,\s*"(?:result|error)"`,
);
/** `{"result":…,"jsonrpc":"2.0","id":7}` — the TypeScript SDK puts the id last. */
const HEAD_RESULT = /^\s*\{\s*"(?:result|error)"\s*:/;
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The JSON-RPC error answer that replaces an oversized response, so the one
 * call waiting for it fails and every other call carries on. Undefined when
 * the line is not recognisably a response (then the stream cannot be trusted
 * to pair answers with calls and the caller restarts the server).
 */
export function oversizedReply(line: OversizedLine, limit: number): JSONRPCMessage | undefined {
  const id = responseId(line);
  if (id === undefined) return undefined;
  const data: MessageTooLargeData = { reason: MESSAGE_TOO_LARGE, bytes: line.bytes, limit };
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: INTERNAL_ERROR,
      message: `the answer is ${describeOversize(line.bytes, limit)}`,
      data,
    },
  };
}

export function describeOversize(bytes: number, limit: number): string {
  return `${formatBytes(bytes)}, over the limit of ${formatBytes(limit)} for one upstream message (toolscript.upstream.maxMessageBytes)`;
}

export function isMessageTooLarge(data: unknown): data is MessageTooLargeData {
  return (
    typeof data === "object" && data !== null && (data as { reason?: unknown }).reason === MESSAGE_TOO_LARGE
  );
}

function responseId(line: OversizedLine): string | number | undefined {
  const head = HEAD_ID.exec(line.head);
  if (head?.[1] !== undefined) return parseId(head[1]);
  if (!HEAD_RESULT.test(line.head)) return undefined;
  const tail = TAIL_ID.exec(line.tail);
  return tail?.[1] === undefined ? undefined : parseId(tail[1]);
}

function parseId(text: string): string | number | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" || typeof value === "number" ? value : undefined;
  } catch {
    return undefined;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB (${bytes} bytes)`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB (${bytes} bytes)`;
  return `${bytes} bytes`;
}
