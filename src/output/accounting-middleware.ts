import type { ToolCallMiddleware } from "../bridge/types.ts";
import type { ToolCallRecord } from "./accounting.ts";

/**
 * Records every tool call of one execution into `records` (args, then the
 * result or the error message) for `accountExecution`. Put it outermost, so it
 * sees the arguments as the code wrote them and the results as the sandbox
 * received them (after PII tokenization). Create one array per execution.
 */
export function accountingMiddleware(records: ToolCallRecord[]): ToolCallMiddleware {
  return async (call, next) => {
    const record: ToolCallRecord = { tool: call.tool, args: call.args };
    records.push(record);
    try {
      const result = await next(call);
      record.result = result;
      return result;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
}
