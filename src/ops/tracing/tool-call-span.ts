import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { argsJson } from "../../bridge/args-json.ts";
import type { ToolCall, ToolCallMiddleware } from "../../bridge/types.ts";
import type { PolicyAction } from "../../policy/policy.ts";
import { jsonOf } from "../../sandbox/shared/serialized-value.ts";
import { ATTR, EXECUTE_TOOL } from "./attributes.ts";
import { tracer } from "./tracer.ts";

/**
 * A span per call the program makes (a tool, or `resources.read`, `prompts.get`, ...), the child of
 * `parent` (the execution's span, given explicitly: a sandbox's callback into the host need not carry
 * the async context). The call runs with its span active, so the upstream request is its child.
 * Outermost middleware: refusals by policy and limits get their span too.
 */
export function toolCallTracing(
  parent: Context,
  decisions: WeakMap<object, PolicyAction>,
): ToolCallMiddleware {
  return async (call, next) => {
    const span = tracer.startSpan(spanName(call), { kind: SpanKind.INTERNAL }, parent);
    if (!span.isRecording()) return next(call);
    span.setAttributes({
      [ATTR.server]: call.tool.server,
      [ATTR.argsBytes]: Buffer.byteLength(argsJson(call.args)),
    });
    if (call.operation) span.setAttribute(ATTR.mcpMethodName, call.tool.tool);
    else
      span.setAttributes({ [ATTR.genAiOperationName]: EXECUTE_TOOL, [ATTR.genAiToolName]: call.tool.tool });
    try {
      const value = await context.with(trace.setSpan(parent, span), () => next(call));
      span.setAttribute(ATTR.outcome, "ok");
      span.setAttribute(ATTR.resultBytes, jsonOf(value).bytes);
      return value;
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      const policy = decisions.get(call);
      if (policy !== undefined) span.setAttribute(ATTR.policy, policy);
      span.end();
    }
  };
}

/** `execute_tool <server>.<tool>` (GenAI conventions); a request other than a tool call by its method. */
function spanName(call: ToolCall): string {
  const { server, tool } = call.tool;
  return call.operation ? `${tool} ${server}` : `${EXECUTE_TOOL} ${server}.${tool}`;
}

/** The error's code (`policy.denied`, `tool.timeout`, ...) as `error.type`; its message stays out. */
function failed(span: Span, error: unknown): void {
  const record = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    name?: unknown;
  };
  const type =
    typeof record.code === "string" ? record.code : typeof record.name === "string" ? record.name : "error";
  span.setAttribute(ATTR.outcome, type);
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}
