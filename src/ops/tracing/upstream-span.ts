import { context, type Span, SpanKind, trace } from "@opentelemetry/api";
import { ATTR, EXECUTE_TOOL } from "./attributes.ts";
import { endAfter } from "./span-outcome.ts";
import { traceMeta } from "./trace-context.ts";
import { tracer } from "./tracer.ts";

/** One request to an upstream server as its span describes it. */
export interface UpstreamRequest {
  server: string;
  /** "pipe" for stdio, "tcp" for HTTP (`network.transport`); undefined while not connected. */
  transport: "pipe" | "tcp" | undefined;
  /** The MCP method, e.g. `tools/call`, `resources/read`. */
  method: string;
  /** The tool or prompt named; a resource's URI (an attribute only: URIs are too many for span names). */
  tool?: string | undefined;
  prompt?: string | undefined;
  uri?: string | undefined;
}

/**
 * Sends one request to an upstream in a CLIENT span (`tools/call <tool>`, `resources/read`, ...:
 * MCP conventions), the child of the active context (the program's call). `send` gets the
 * `_meta` entries that carry the span's trace context (`traceparent`, `tracestate`) to the
 * server, or undefined when tracing is off.
 */
export async function traceUpstreamRequest<T>(
  request: UpstreamRequest,
  send: (meta: Record<string, string> | undefined) => Promise<T>,
): Promise<T> {
  // Taken now, before any wait (rate limit, queue): the caller's context is the one active here.
  const parent = context.active();
  const target = request.tool ?? request.prompt;
  const span = tracer.startSpan(
    target === undefined ? request.method : `${request.method} ${target}`,
    { kind: SpanKind.CLIENT },
    parent,
  );
  const active = trace.setSpan(parent, span);
  // Not sampled: the server still hears of the trace (its flags say not sampled); off: nothing to say.
  if (!span.isRecording()) return send(traceMeta(active));
  setRequestAttributes(span, request);
  return endAfter(span, () => context.with(active, () => send(traceMeta(active))));
}

function setRequestAttributes(span: Span, request: UpstreamRequest): void {
  span.setAttributes({ [ATTR.mcpMethodName]: request.method, [ATTR.server]: request.server });
  if (request.transport !== undefined) span.setAttribute(ATTR.networkTransport, request.transport);
  if (request.tool !== undefined)
    span.setAttributes({ [ATTR.genAiToolName]: request.tool, [ATTR.genAiOperationName]: EXECUTE_TOOL });
  if (request.prompt !== undefined) span.setAttribute(ATTR.genAiPromptName, request.prompt);
  if (request.uri !== undefined) span.setAttribute(ATTR.mcpResourceUri, request.uri);
}

/**
 * The method and target of a connection's request from its label (`resources/read <uri>`,
 * `prompts/get <name>`, `resources/list`, ...), or a tool call's when `tool` is set.
 */
export function upstreamRequestOf(
  label: string,
  tool: string | undefined,
): Pick<UpstreamRequest, "method" | "tool" | "prompt" | "uri"> {
  if (tool !== undefined) return { method: "tools/call", tool };
  const space = label.indexOf(" ");
  if (space === -1) return { method: label };
  const method = label.slice(0, space);
  const target = label.slice(space + 1);
  if (method === "prompts/get") return { method, prompt: target };
  return method.startsWith("resources/") ? { method, uri: target } : { method };
}
