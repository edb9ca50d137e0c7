import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ExecuteResponse } from "../gateway/types.ts";

/** Until the token budget (output/) exists, a plain size cap keeps one answer from flooding the context. */
export const MAX_ANSWER_CHARS = 40_000;

/** The MCP answer to `execute_code`: readable text plus `structuredContent` for programs. */
export function formatExecuteAnswer(response: ExecuteResponse): CallToolResult {
  const parts: string[] = [];
  if (response.logs.length > 0) {
    const lines = response.logs.map((entry) =>
      entry.level === "log" ? entry.message : `[${entry.level}] ${entry.message}`,
    );
    if (response.logsTruncated) lines.push("[logs truncated at the size limit]");
    parts.push(`Logs:\n${lines.join("\n")}`);
  }
  const { error } = response;
  const rendered = response.result === undefined ? undefined : renderValue(response.result);
  const resultCut = rendered !== undefined && rendered.length > MAX_ANSWER_CHARS;
  if (error) {
    const where =
      error.line === undefined ? "" : ` at line ${error.line}${error.column ? `:${error.column}` : ""}`;
    parts.push(
      `${error.name} (${error.kind})${where}: ${error.message}${error.stack ? `\n${error.stack}` : ""}`,
    );
  } else if (rendered !== undefined) {
    parts.push(`Result:\n${rendered}`);
  } else if (parts.length === 0) {
    parts.push("Done (no result returned).");
  }
  parts.push(`(${response.toolCalls} tool calls, ${Math.round(response.durationMs)} ms)`);
  const structured = {
    // A cut result is sent as the cut text, flagged, never as a value that reads as complete.
    ...(rendered !== undefined && { result: resultCut ? capText(rendered) : response.result }),
    ...(resultCut && { resultTruncated: true }),
    logs: response.logs,
    toolCalls: response.toolCalls,
    durationMs: Math.round(response.durationMs * 100) / 100,
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
    content: [{ type: "text", text: capText(parts.join("\n\n")) }],
    structuredContent: structured,
    ...(error && { isError: true }),
  };
}

function renderValue(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

function capText(text: string): string {
  if (text.length <= MAX_ANSWER_CHARS) return text;
  const cut = text.length - MAX_ANSWER_CHARS;
  return `${text.slice(0, MAX_ANSWER_CHARS)}\n[… ${cut} more characters cut: return less, or aggregate in code]`;
}
