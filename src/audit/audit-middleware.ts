import { createHash } from "node:crypto";
import type { ToolCallMiddleware } from "../bridge/types.ts";
import type { PolicyAction } from "../policy/policy.ts";
import { jsonOf } from "../sandbox/shared/serialized-value.ts";
import { type AuditLog, STARTED_OUTCOME } from "./audit-log.ts";
import type { ViolationCounter } from "./violations.ts";

export interface AuditMiddlewareOptions {
  log: AuditLog;
  violations: ViolationCounter;
  session: string;
  /** The client running the execution; null: the local client. */
  client?: string | null;
  /** The policy's decision per call, filled by the policy middleware that runs inside this one. */
  decisions: WeakMap<object, PolicyAction>;
}

/**
 * Records every tool call from code: digest of its arguments, bytes, duration,
 * outcome, policy decision. The record is written (durably) before the call
 * goes on, and completed when it ends.
 */
export function auditMiddleware(options: AuditMiddlewareOptions): ToolCallMiddleware {
  return async (call, next) => {
    const started = performance.now();
    const argsJson = JSON.stringify(call.args ?? {}) ?? "";
    const base = {
      kind: "tool_call" as const,
      time: Date.now(),
      session: options.session,
      ...(options.client != null && { client: options.client }),
      server: call.tool.server,
      tool: call.tool.tool,
      argsDigest: createHash("sha256").update(argsJson).digest("hex"),
      argsBytes: Buffer.byteLength(argsJson),
    };
    const ticket = options.log.begin({ ...base, outcome: STARTED_OUTCOME, durationMs: 0 });
    let outcome = "ok";
    let bytesOut: number | null = null;
    try {
      const value = await next(call);
      bytesOut = jsonOf(value).bytes;
      return value;
    } catch (error) {
      const record = error as { code?: unknown; name?: unknown };
      outcome =
        typeof record.code === "string"
          ? record.code
          : typeof record.name === "string"
            ? record.name
            : "error";
      throw error;
    } finally {
      const policy = options.decisions.get(call) ?? null;
      const violation = outcome.startsWith("policy.") || outcome.startsWith("limit.");
      if (violation)
        options.violations.add(options.session, outcome.startsWith("policy.") ? "policy" : "limit");
      options.log.complete(
        ticket,
        {
          ...base,
          outcome,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          bytesOut,
          policy,
        },
        violation,
      );
    }
  };
}
