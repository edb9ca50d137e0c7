import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ExecuteRequest, ExecuteResponse } from "../../gateway/types.ts";
import { ATTR, EXECUTE_TOOL } from "./attributes.ts";
import { contextFromCarrier } from "./trace-context.ts";
import { tracer } from "./tracer.ts";

/** What the gateway knows of an execution when it starts. */
export interface ExecutionFacts {
  session: string;
  client: string | null;
  /** The sandbox tier it runs in (process for Python). */
  tier: string;
}

/**
 * Runs one execution in its span: `tools/call execute_code` (kind SERVER) when
 * a client's request asked for it, the child of the client's span when the
 * request carried a trace context; `execute_code` (INTERNAL) for the CLI and
 * embedding code, the child of the active span (an embedding app's own). `run`
 * gets the span's context: the parent of the program's tool calls, passed on
 * explicitly since sandbox callbacks may not carry it.
 */
export async function traceExecution(
  request: ExecuteRequest,
  facts: ExecutionFacts,
  run: (parent: Context) => Promise<ExecuteResponse>,
): Promise<ExecuteResponse> {
  const fromClient = request.trace !== undefined;
  // A client's request starts from what it sent (nothing: a new trace), never from the handler's context.
  const parent = fromClient ? contextFromCarrier(request.trace) : context.active();
  const span = tracer.startSpan(
    fromClient ? "tools/call execute_code" : "execute_code",
    { kind: fromClient ? SpanKind.SERVER : SpanKind.INTERNAL },
    parent,
  );
  // With tracing off the span is a no-op: no attribute is computed.
  if (span.isRecording()) startAttributes(span, request, facts);
  try {
    const response = await run(trace.setSpan(parent, span));
    if (span.isRecording()) endAttributes(span, response);
    return response;
  } catch (error) {
    span.setAttribute(ATTR.errorType, error instanceof Error ? error.name : "error");
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : undefined });
    throw error;
  } finally {
    span.end();
  }
}

function startAttributes(span: Span, request: ExecuteRequest, facts: ExecutionFacts): void {
  span.setAttributes({
    [ATTR.genAiOperationName]: EXECUTE_TOOL,
    [ATTR.genAiToolName]: "execute_code",
    [ATTR.session]: facts.session,
    [ATTR.language]: request.language ?? "typescript",
    [ATTR.sandboxTier]: facts.tier,
  });
  if (request.trace !== undefined) span.setAttribute(ATTR.mcpMethodName, "tools/call");
  if (request.trace?.mcpSessionId !== undefined)
    span.setAttribute(ATTR.mcpSessionId, request.trace.mcpSessionId);
  if (request.trace?.requestId !== undefined)
    span.setAttribute(ATTR.jsonrpcRequestId, String(request.trace.requestId));
  if (facts.client !== null) span.setAttribute(ATTR.client, facts.client);
}

function endAttributes(span: Span, response: ExecuteResponse): void {
  span.setAttributes({
    [ATTR.toolCalls]: response.toolCalls,
    [ATTR.failedToolCalls]: response.failedToolCalls,
    [ATTR.toolResultBytes]: response.toolResultBytes,
    [ATTR.outcome]: response.error === undefined ? "ok" : response.error.kind,
  });
  if (response.returnedBytes !== undefined) span.setAttribute(ATTR.returnedBytes, response.returnedBytes);
  if (response.tokens !== undefined) span.setAttribute(ATTR.returnedTokens, response.tokens.returned);
  const error = response.error;
  if (error === undefined) return;
  // Codes and names only: messages may quote the program's data, which the collector need not see.
  const type = error.code ?? error.name;
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: `${error.kind}: ${type}` });
}
