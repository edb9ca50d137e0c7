import { argsJson } from "./args-json.ts";
import { BridgeError } from "./errors.ts";
import type { ToolCallMiddleware } from "./types.ts";

/**
 * Refuses a call whose arguments (as JSON) exceed `maxBytes` before any
 * server sees it: a few calls with huge arguments used to crash an upstream
 * past its restart budget, taking its tools away from every session.
 */
export function argumentLimitMiddleware(maxBytes: number): ToolCallMiddleware {
  return (call, next) => {
    const bytes = Buffer.byteLength(argsJson(call.args));
    if (bytes > maxBytes) {
      const { server, tool } = call.tool;
      throw new BridgeError(
        "LimitError",
        "limit.argument_bytes",
        `the arguments of ${server}/${tool} are ${bytes} bytes of JSON, over the limit of ${maxBytes} bytes per call (toolscript.upstream.maxArgumentBytes)`,
        { server, tool, bytes, limit: maxBytes },
      );
    }
    return next(call);
  };
}
