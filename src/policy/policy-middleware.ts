import { BridgeError } from "../bridge/errors.ts";
import type { ToolCall, ToolCallMiddleware } from "../bridge/types.ts";
import type { Approver } from "./approval.ts";
import type { Policy, PolicyAction } from "./policy.ts";

export interface PolicyMiddlewareOptions {
  policy: Policy;
  /** How to ask the user; absent when the client cannot be asked (no elicitation). */
  approver?: Approver | undefined;
  /** Told of every decision, for the audit log. */
  onDecision?: (call: ToolCall, action: PolicyAction) => void;
}

type RefusalCode = "policy.denied" | "policy.declined" | "policy.no_approver";

/** Refuses calls the policy denies, and asks before those it marks for approval. */
export function policyMiddleware(options: PolicyMiddlewareOptions): ToolCallMiddleware {
  return async (call, next) => {
    const { server, tool } = call.tool;
    const decision = options.policy.decide(call.tool);
    options.onDecision?.(call, decision.action);
    const refuse = (code: RefusalCode, message: string) =>
      new BridgeError("PolicyError", code, message, { server, tool, action: decision.action });
    if (decision.action === "deny") throw refuse("policy.denied", `refused: ${decision.reason}`);
    if (decision.action === "approve") {
      if (!options.approver) {
        throw refuse(
          "policy.no_approver",
          `refused: ${decision.reason}, and this client cannot ask the user (it does not support MCP elicitation)`,
        );
      }
      const accepted = await options.approver(
        { server, tool, args: call.args, reason: decision.reason },
        call.signal,
      );
      if (!accepted) throw refuse("policy.declined", `refused: the user did not approve ${server}/${tool}`);
    }
    return next(call);
  };
}
