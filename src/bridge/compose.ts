import type { ToolCallHandler, ToolCallMiddleware } from "./types.ts";

/** Wraps `handler` in `middleware`, the first entry outermost. */
export function composeMiddleware(
  middleware: readonly ToolCallMiddleware[],
  handler: ToolCallHandler,
): ToolCallHandler {
  return middleware.reduceRight<ToolCallHandler>((next, step) => (call) => step(call, next), handler);
}
