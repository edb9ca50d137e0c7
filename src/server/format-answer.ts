import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { formatError } from "../gateway/answer.ts";
import type { ExecuteResponse } from "../gateway/types.ts";

/**
 * The MCP answer to `execute_code`: the budgeted text for the model plus
 * `structuredContent` for programs (the same content, reduced the same way).
 */
export function formatExecuteAnswer(response: ExecuteResponse): CallToolResult {
  const { error, answer } = response;
  const footer = `(${response.toolCalls} tool calls, ${Math.round(response.durationMs)} ms)`;
  const text = answer ? `${answer.text}\n\n${footer}` : `${fallbackText(response)}\n\n${footer}`;
  const structured = {
    ...(answer
      ? {
          ...(answer.structured.result !== undefined && { result: answer.structured.result }),
          ...(answer.structured.resultReduced && { resultReduced: answer.structured.resultReduced }),
          logs: answer.structured.logs,
          ...(answer.structured.logsReduced && { logsReduced: answer.structured.logsReduced }),
        }
      : { ...(response.result !== undefined && { result: response.result }), logs: response.logs }),
    toolCalls: response.toolCalls,
    durationMs: Math.round(response.durationMs * 100) / 100,
    ...(response.tokens && { tokens: response.tokens }),
    ...(error && {
      error: {
        kind: error.kind,
        name: error.name,
        message: error.message,
        ...(error.line !== undefined && { line: error.line }),
        ...(error.column !== undefined && { column: error.column }),
      },
    }),
  };
  return {
    content: [{ type: "text", text }],
    structuredContent: structured,
    ...(error && { isError: true }),
  };
}

/** Only for responses that did not go through the gateway's answer step. */
function fallbackText(response: ExecuteResponse): string {
  if (response.error) return formatError(response.error);
  if (response.result === undefined) return "Done (no result returned).";
  return typeof response.result === "string" ? response.result : JSON.stringify(response.result);
}
