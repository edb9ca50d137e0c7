import { argsJson } from "../bridge/args-json.ts";
import type { ToolCallMiddleware } from "../bridge/types.ts";
import type { CallLedger } from "./accounting.ts";

/**
 * Records every tool call of one execution into `ledger` (its tool, the size
 * and a sample of its arguments and of its result or error) for
 * `accountExecution`. Put it outermost, so it sees the arguments as the code
 * wrote them and the results as the sandbox received them (after PII
 * tokenization). Create one ledger per execution.
 */
export function accountingMiddleware(ledger: CallLedger): ToolCallMiddleware {
  return async (call, next) => {
    ledger.tools.add(call.tool.definition);
    ledger.args.add(argsJson(call.args));
    try {
      const result = await next(call);
      ledger.addResult(result);
      return result;
    } catch (error) {
      ledger.addError(error instanceof Error ? error.message : String(error));
      throw error;
    }
  };
}
