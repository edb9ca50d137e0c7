import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { Approver } from "../policy/approval.ts";

const MAX_ARGS_CHARS = 2000;

/**
 * An approver that asks the user through MCP elicitation, or undefined when
 * the client did not declare elicitation (then approval-gated calls are refused).
 * `relatedRequestId` is the `tools/call` that needs the approval: over Streamable
 * HTTP the prompt then travels on that call's POST stream, which every client
 * reads, instead of the optional standalone GET stream.
 */
export function elicitationApprover(server: McpServer, relatedRequestId?: RequestId): Approver | undefined {
  if (!server.server.getClientCapabilities()?.elicitation) return undefined;
  return async (request, signal) => {
    let args = JSON.stringify(request.args, null, 2) ?? "undefined";
    if (args.length > MAX_ARGS_CHARS)
      args = `${args.slice(0, MAX_ARGS_CHARS)}\n… (${args.length - MAX_ARGS_CHARS} more characters)`;
    const result = await server.server.elicitInput(
      {
        mode: "form",
        message: `Allow the program to call ${request.server}/${request.tool}?\nReason: ${request.reason}\nArguments:\n${args}`,
        requestedSchema: {
          type: "object",
          properties: { approve: { type: "boolean", title: "Approve this call", default: true } },
          required: ["approve"],
        },
      },
      { signal, ...(relatedRequestId !== undefined && { relatedRequestId }) },
    );
    return result.action === "accept" && result.content?.approve !== false;
  };
}
