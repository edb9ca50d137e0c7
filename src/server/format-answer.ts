import type { CallToolResult } from "@modelcontextprotocol/server";
import { formatError } from "../gateway/answer.ts";
import type { ExecuteResponse } from "../gateway/types.ts";
import { boundExecution } from "../output/bound-execution.ts";
import { boundValue, cutMiddle, jsonBytesUpTo } from "../output/bound-value.ts";
import { formatCount } from "../output/format-number.ts";

/**
 * Hard cap on the whole answer as JSON, far below the 10 MiB an MCP client
 * accepts (past that the SDK client closes the connection). Half for the text,
 * half for the structured content. The token budget keeps answers much smaller;
 * this holds whatever the budget's configuration.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;
const PART_BYTES = MAX_ANSWER_BYTES / 2;
/** At worst one character is six bytes of JSON (`\u0001`): a cut this short always fits. */
const WORST_BYTES_PER_CHAR = 6;
const MAX_SHRINK_ATTEMPTS = 4;

/**
 * The MCP answer to `execute_code`: the budgeted text for the model plus
 * `structuredContent` for programs (the same content, reduced the same way).
 */
export function formatExecuteAnswer(input: ExecuteResponse): CallToolResult {
  // Responses that skipped the gateway's answer step are cut to the hard caps here.
  const response = input.answer ? input : boundExecution(input).result;
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
    content: [{ type: "text", text: capText(text, PART_BYTES) }, ...(answer?.media ?? [])],
    structuredContent: capStructured(structured, PART_BYTES),
    ...(error && { isError: true }),
  };
}

/** `text` cut in the middle until its JSON is within `maxBytes`. */
export function capText(text: string, maxBytes: number): string {
  if (!jsonBytesUpTo(text, maxBytes).over) return text;
  let chars = maxBytes;
  for (let attempt = 0; attempt < MAX_SHRINK_ATTEMPTS; attempt++) {
    const cut = cutMiddle(text, chars);
    if (!jsonBytesUpTo(cut, maxBytes).over) return cut;
    chars = Math.floor(chars / 2);
  }
  return cutMiddle(text, Math.floor(maxBytes / WORST_BYTES_PER_CHAR) - 200);
}

/** The structured content within `maxBytes`: its result, logs and error message cut when it is over. */
function capStructured<T extends { result?: unknown; logs: unknown; error?: { message: string } }>(
  structured: T,
  maxBytes: number,
): Record<string, unknown> {
  const measured = jsonBytesUpTo(structured, maxBytes);
  if (!measured.over) return structured;
  const note = `[… the structured answer was over ${formatCount(maxBytes)} bytes and was cut; the text content has the budgeted answer …]`;
  let room = maxBytes / 2;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= MAX_SHRINK_ATTEMPTS;
    const share = last ? Math.floor(maxBytes / 4 / WORST_BYTES_PER_CHAR) : room;
    const cut = {
      ...structured,
      ...(structured.result !== undefined && { result: boundValue(structured.result, share).value }),
      logs: boundValue(structured.logs, share / 2).value,
      ...(structured.error && {
        error: { ...structured.error, message: capText(structured.error.message, share / 4) },
      }),
      cut: note,
    };
    if (last || !jsonBytesUpTo(cut, maxBytes).over) return cut;
    room = Math.floor(room / 2);
  }
}

/** Only for responses that did not go through the gateway's answer step. */
function fallbackText(response: ExecuteResponse): string {
  if (response.error) return formatError(response.error);
  if (response.result === undefined) return "Done (no result returned).";
  return typeof response.result === "string" ? response.result : JSON.stringify(response.result);
}
