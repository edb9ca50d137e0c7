/**
 * Span attribute keys: the OpenTelemetry semantic conventions' where they
 * have one (MCP, GenAI, errors), `toolscript.*` for the gateway's own.
 */
export const ATTR = {
  mcpMethodName: "mcp.method.name",
  mcpSessionId: "mcp.session.id",
  mcpProtocolVersion: "mcp.protocol.version",
  mcpResourceUri: "mcp.resource.uri",
  jsonrpcRequestId: "jsonrpc.request.id",
  genAiOperationName: "gen_ai.operation.name",
  genAiToolName: "gen_ai.tool.name",
  genAiPromptName: "gen_ai.prompt.name",
  errorType: "error.type",
  networkTransport: "network.transport",
  session: "toolscript.session",
  client: "toolscript.client",
  language: "toolscript.language",
  sandboxTier: "toolscript.sandbox.tier",
  outcome: "toolscript.outcome",
  toolCalls: "toolscript.tool_calls",
  failedToolCalls: "toolscript.tool_calls.failed",
  toolResultBytes: "toolscript.tool_result_bytes",
  returnedBytes: "toolscript.returned_bytes",
  returnedTokens: "toolscript.tokens.returned",
  server: "toolscript.server",
  policy: "toolscript.policy",
  argsBytes: "toolscript.args_bytes",
  resultBytes: "toolscript.result_bytes",
} as const;

/** `gen_ai.operation.name` of running a tool (GenAI conventions' execute_tool span). */
export const EXECUTE_TOOL = "execute_tool";
