import type { ServerContext } from "@modelcontextprotocol/server";
import type { ClientTrace } from "../gateway/types.ts";
import { clientTraceCarrier } from "../ops/tracing/trace-context.ts";

/**
 * What a client's request says for tracing: its W3C trace context (`_meta`,
 * else the HTTP request's headers) and its MCP session. Always an object: its
 * presence makes the execution's span the server span of this request.
 */
export function clientTraceOf(ctx: ServerContext): ClientTrace {
  const carrier = clientTraceCarrier(ctx.mcpReq._meta, ctx.http?.req?.headers);
  return {
    ...carrier,
    ...(ctx.sessionId !== undefined && { mcpSessionId: ctx.sessionId }),
    requestId: ctx.mcpReq.id,
  };
}
