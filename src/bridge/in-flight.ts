import type { ToolCallMiddleware } from "./types.ts";

/**
 * Tells `begin` each call that goes to its server, and when it ends: while a
 * call is in flight, what its server asks the client (sampling, elicitation,
 * roots) is routed to the client whose program made it.
 */
export function inFlightMiddleware(begin: (server: string) => () => void): ToolCallMiddleware {
  return async (call, next) => {
    const end = begin(call.tool.server);
    try {
      return await next(call);
    } finally {
      end();
    }
  };
}
