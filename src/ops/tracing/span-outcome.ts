import { type Span, SpanStatusCode } from "@opentelemetry/api";
import { ATTR } from "./attributes.ts";

/**
 * A tool's own failure is an answer, not a protocol error: MCP conventions record an
 * `isError` result as `error.type` tool_error with status ERROR.
 */
export function recordAnswer(span: Span, result: unknown): void {
  if ((result as { isError?: unknown } | null)?.isError !== true) return;
  span.setAttribute(ATTR.errorType, "tool_error");
  span.setStatus({ code: SpanStatusCode.ERROR, message: "tool_error" });
}

/** A thrown failure by its code (`tool.timeout`, a JSON-RPC code) or name; its message stays out. */
export function recordFailure(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  const type =
    typeof code === "string" || typeof code === "number"
      ? String(code)
      : error instanceof Error
        ? error.name
        : "error";
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** Runs `work`, records its answer or failure on `span`, and ends the span either way. */
export async function endAfter<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    recordAnswer(span, result);
    return result;
  } catch (error) {
    recordFailure(span, error);
    throw error;
  } finally {
    span.end();
  }
}
