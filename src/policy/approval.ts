/** What the user is asked to approve: one call, with its arguments. */
export interface ApprovalRequest {
  server: string;
  tool: string;
  args: unknown;
  reason: string;
}

/**
 * Asks the user (MCP elicitation, through the client of this execution).
 * Resolves true only on an explicit accept.
 */
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<boolean>;
