import { BridgeError } from "../../bridge/errors.ts";
import type { ToolCallMiddleware } from "../../bridge/types.ts";
import type { Approver } from "../../policy/approval.ts";
import type { PolicyAction } from "../../policy/policy.ts";
import { anomalySessionKey, liftedWhen, type SessionResponses } from "./session-responses.ts";
import { isWriteLike } from "./write-like.ts";

export interface AnomalyGuardOptions {
  responses: SessionResponses;
  session: string;
  client: string | null;
  approver: Approver | undefined;
  /** The policy's decisions: a call the policy already asked about is not asked twice. */
  decisions: WeakMap<object, PolicyAction>;
}

/**
 * Enforces the responses to a session's anomalies on its tool calls: a blocked
 * session's calls are refused (`anomaly.blocked`); under `approve`, each
 * side-effecting call needs the user's approval, asked like the policy's.
 * Sits just inside the policy middleware, so the audit records its refusals.
 */
export function anomalyGuardMiddleware(options: AnomalyGuardOptions): ToolCallMiddleware {
  const key = anomalySessionKey(options.session, options.client);
  return async (call, next) => {
    const { server, tool } = call.tool;
    const blocked = options.responses.blocked(key);
    if (blocked) {
      throw new BridgeError(
        "PolicyError",
        "anomaly.blocked",
        `refused: session "${options.session}" is blocked after a "${blocked.kind}" anomaly (${blocked.why}); ${liftedWhen(blocked)}`,
        { server, tool, anomaly: blocked.kind },
      );
    }
    const approval = options.responses.approvalRequired(key);
    if (approval && options.decisions.get(call) !== "approve" && isWriteLike(call.tool)) {
      const reason = `session "${options.session}" had a "${approval.kind}" anomaly (${approval.why}); its side-effecting calls need approval, ${liftedWhen(approval)}`;
      if (!options.approver) {
        throw new BridgeError(
          "PolicyError",
          "anomaly.no_approver",
          `refused: ${reason}, and this client cannot ask the user (it does not support MCP elicitation)`,
          { server, tool, anomaly: approval.kind },
        );
      }
      const accepted = await options.approver({ server, tool, args: call.args, reason }, call.signal);
      if (!accepted) {
        throw new BridgeError(
          "PolicyError",
          "anomaly.declined",
          `refused: the user did not approve ${server}/${tool} (${reason})`,
          { server, tool, anomaly: approval.kind },
        );
      }
    }
    return next(call);
  };
}
