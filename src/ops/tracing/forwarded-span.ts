import { context, type Span, SpanKind, trace } from "@opentelemetry/api";
import type { ClientTrace } from "../../gateway/types.ts";
import { ATTR, EXECUTE_TOOL } from "./attributes.ts";
import { endAfter } from "./span-outcome.ts";
import { contextFromCarrier } from "./trace-context.ts";
import { tracer } from "./tracer.ts";

/** A client's request the gateway forwards to one upstream (pass-through), as its span describes it. */
export interface ForwardedRequest {
  /** The MCP method, e.g. `tools/call`, `resources/read`. */
  method: string;
  /** The upstream server it goes to. */
  server: string;
  /** The tool or prompt as the client named it (prefixed); a resource's URI (an attribute only). */
  tool?: string | undefined;
  prompt?: string | undefined;
  uri?: string | undefined;
  /** The client's trace context and session. */
  trace: ClientTrace;
}

/**
 * Runs a passed-through request in a SERVER span (`tools/call <tool>`, MCP conventions), the
 * child of the client's span when its request carried a trace context. `run` goes with the
 * span active: the upstream request's CLIENT span is its child and carries it on in `_meta`.
 */
export async function traceForwardedRequest<T>(request: ForwardedRequest, run: () => Promise<T>): Promise<T> {
  const parent = contextFromCarrier(request.trace);
  const target = request.tool ?? request.prompt;
  const span = tracer.startSpan(
    target === undefined ? request.method : `${request.method} ${target}`,
    { kind: SpanKind.SERVER },
    parent,
  );
  // Off (or not sampled): the upstream still hears of the client's trace through the parent context.
  if (!span.isRecording()) return context.with(trace.setSpan(parent, span), run);
  setAttributes(span, request);
  return endAfter(span, () => context.with(trace.setSpan(parent, span), run));
}

function setAttributes(span: Span, request: ForwardedRequest): void {
  span.setAttributes({ [ATTR.mcpMethodName]: request.method, [ATTR.server]: request.server });
  if (request.tool !== undefined)
    span.setAttributes({ [ATTR.genAiToolName]: request.tool, [ATTR.genAiOperationName]: EXECUTE_TOOL });
  if (request.prompt !== undefined) span.setAttribute(ATTR.genAiPromptName, request.prompt);
  if (request.uri !== undefined) span.setAttribute(ATTR.mcpResourceUri, request.uri);
  const { mcpSessionId, requestId } = request.trace;
  if (mcpSessionId !== undefined) span.setAttribute(ATTR.mcpSessionId, mcpSessionId);
  if (requestId !== undefined) span.setAttribute(ATTR.jsonrpcRequestId, String(requestId));
}
