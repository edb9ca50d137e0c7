import { SerializedValue } from "../sandbox/shared/serialized-value.ts";
import type { ToolCallMiddleware } from "./types.ts";

/**
 * Serializes a tool call's result once, as the sandbox will receive it (after
 * PII tokenization, which runs inside this step): the audit and the accounting
 * outside it read the size from the SerializedValue, and the host hands the
 * JSON to the sandbox as it is. Requests other than tool calls (resources,
 * prompts) pass through as values: the feature bridge reshapes them after.
 */
export function serializeResultMiddleware(): ToolCallMiddleware {
  return async (call, next) => {
    const value = await next(call);
    return call.operation ? value : new SerializedValue(value);
  };
}
