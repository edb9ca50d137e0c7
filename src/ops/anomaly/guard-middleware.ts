import { BridgeError } from "../../bridge/errors.ts";
import type { ToolCallMiddleware } from "../../bridge/types.ts";
import type { Approver } from "../../policy/approval.ts";
import type { Policy } from "../../policy/policy.ts";
import { anomalySessionKey, liftedWhen, type SessionResponses } from "./session-responses.ts";
import { isWriteLike } from "./write-like.ts";

export interface AnomalyGuardOptions {
  responses: SessionResponses;
  session: string;
  client: string | null;
  approver: Approver | undefined;
  /** The policy, which decides after this: a call it denies or asks about itself is not asked about here. */
  policy: Pick<Policy, "decide">;
}

/**
 * Enforces the responses to a session's anomalies on its tool calls: a blocked
 * session's calls are refused (`anomaly.blocked`); under `approve`, each
 * side-effecting call needs the user's approval, asked like the policy's.
 * Sits just outside the policy middleware (a blocked session's calls are
 * refused whatever the policy says) and inside the audit, which records its refusals.
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
        `refused: session "${options.session}" is blocked after anomaly "${blocked.kind}" (${blocked.why}); ${liftedWhen(blocked)}`,
        { server, tool, anomaly: blocked.kind },
      );
    }
    const approval = options.responses.approvalRequired(key);
    if (approval && options.policy.decide(call.tool).action === "allow" && isWriteLike(call.tool)) {
      const reason = `session "${options.session}" had anomaly "${approval.kind}" (${approval.why}); its side-effecting calls need approval, ${liftedWhen(approval)}`;
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
