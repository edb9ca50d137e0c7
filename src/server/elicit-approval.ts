import type { ElicitRequestFormParams, McpServer, RequestId } from "@modelcontextprotocol/server";
import type { ApprovalRequest, Approver } from "../policy/approval.ts";

const MAX_ARGS_CHARS = 2000;

/** The question put to the user for one approval-gated call. */
export function approvalMessage(request: ApprovalRequest): string {
  let args = JSON.stringify(request.args, null, 2) ?? "undefined";
  if (args.length > MAX_ARGS_CHARS)
    args = `${args.slice(0, MAX_ARGS_CHARS)}\n… (${args.length - MAX_ARGS_CHARS} more characters)`;
  return `Allow the program to call ${request.server}/${request.tool}?\nReason: ${request.reason}\nArguments:\n${args}`;
}

/** The form asked: one boolean, "approve". */
export const APPROVAL_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { approve: { type: "boolean", title: "Approve this call", default: true } },
  required: ["approve"],
};

/**
 * An approver that asks the user through MCP elicitation (2025-era clients),
 * or undefined when
 * the client did not declare elicitation (then approval-gated calls are refused).
 * `relatedRequestId` is the `tools/call` that needs the approval: over Streamable
 * HTTP the prompt then travels on that call's POST stream, which every client
 * reads, instead of the optional standalone GET stream.
 */
export function elicitationApprover(server: McpServer, relatedRequestId?: RequestId): Approver | undefined {
  if (!server.server.getClientCapabilities()?.elicitation) return undefined;
  return async (request, signal) => {
    const result = await server.server.elicitInput(
      { mode: "form", message: approvalMessage(request), requestedSchema: APPROVAL_SCHEMA },
      { signal, ...(relatedRequestId !== undefined && { relatedRequestId }) },
    );
    return result.action === "accept" && result.content?.approve !== false;
  };
}
