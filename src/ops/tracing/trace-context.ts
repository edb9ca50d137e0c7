/**
 * W3C trace context across MCP: read from a client's request (`_meta`, the
 * MCP convention of SEP-414, else the HTTP headers) and written into the
 * `_meta` of requests to upstreams. Uses the registered propagator, so with
 * tracing off nothing is read or written.
 */
import { type Context, context, propagation, ROOT_CONTEXT } from "@opentelemetry/api";

/** The trace context keys MCP reserves in `_meta` (the W3C header names). */
const KEYS = ["traceparent", "tracestate", "baggage"] as const;

/** What a client's request says about its trace: W3C values as sent. */
export interface TraceCarrier {
  traceparent?: string | undefined;
  tracestate?: string | undefined;
  baggage?: string | undefined;
}

/**
 * The client's trace context: the request's `_meta` when it carries a
 * traceparent (it names this very request), else the HTTP request's headers.
 * Undefined when neither has one.
 */
export function clientTraceCarrier(
  meta: Readonly<Record<string, unknown>> | undefined,
  headers?: { get(name: string): string | null } | undefined,
): TraceCarrier | undefined {
  const read = (get: (key: string) => unknown): TraceCarrier | undefined => {
    if (typeof get("traceparent") !== "string") return undefined;
    const carrier: TraceCarrier = {};
    for (const key of KEYS) {
      const value = get(key);
      if (typeof value === "string") carrier[key] = value;
    }
    return carrier;
  };
  return read((key) => meta?.[key]) ?? (headers && read((key) => headers.get(key)));
}

/** The context a client's trace carrier names, as the parent of the gateway's span; the root without one. */
export function contextFromCarrier(carrier: TraceCarrier | undefined): Context {
  if (carrier === undefined) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** The `_meta` entries that carry `ctx` (the active one by default) to an upstream; undefined when there are none. */
export function traceMeta(ctx: Context = context.active()): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}
