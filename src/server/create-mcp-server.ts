import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Gateway } from "../gateway/gateway.ts";
import { compactToolList } from "./compact-tool-list.ts";
import { registerDiscoveryTools } from "./discovery-tools.ts";
import { elicitationApprover } from "./elicit-approval.ts";
import { EXECUTE_CODE, executeCodeDescription, executeCodeInput } from "./execute-code-tool.ts";
import { formatExecuteAnswer } from "./format-answer.ts";
import { registerCatalogResources } from "./resources.ts";
import { registerSkillTools } from "./skills-tool.ts";

export const SERVER_INFO = { name: "toolscript", version: "0.1.0" } as const;

/**
 * One MCP server (one per client connection) exposing the gateway's
 * meta-tools. Descriptions follow the catalog as upstream servers come and go.
 */
export interface McpServerOptions {
  /** Checked before each execution (e.g. an HTTP client's rate); a refusal becomes an error answer. */
  admitExecution?: () => { ok: true } | { ok: false; retryInMs: number };
  /**
   * The HTTP client this server answers (its name in `toolscript.server.http.clients`):
   * the sessions it names must be its own. Absent: the local client (stdio).
   */
  client?: string | undefined;
}

export function createMcpServer(gateway: Gateway, options: McpServerOptions = {}): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
    instructions:
      "ToolScript gateway: find tools with search_tools (or list_tools), read their declarations with describe_tools, then call many of them in one program with execute_code.",
  });

  const executeCode = server.registerTool(
    EXECUTE_CODE,
    {
      description: executeCodeDescription(gateway.catalog, gateway.statuses()),
      inputSchema: executeCodeInput,
      annotations: { openWorldHint: true },
    },
    async (args, extra) => {
      const admitted = options.admitExecution?.() ?? { ok: true };
      if (!admitted.ok) {
        const seconds = Math.ceil(admitted.retryInMs / 1000);
        return {
          content: [
            {
              type: "text",
              text: `RateLimited: too many executions from this client; retry in ${seconds} s`,
            },
          ],
          structuredContent: {
            logs: [],
            toolCalls: 0,
            durationMs: 0,
            error: {
              kind: "runtime",
              name: "RateLimited",
              message: `too many executions; retry in ${seconds} s`,
            },
          },
          isError: true,
        };
      }
      const response = await gateway.execute({
        code: args.code,
        language: args.language,
        timeoutMs: args.timeoutMs,
        context: args.context,
        maxTokens: args.maxTokens,
        strategy: args.strategy,
        typecheck: args.typecheck,
        // Over Streamable HTTP the MCP session is the default; an explicit `session` outlives reconnects.
        session: args.session ?? extra.sessionId,
        client: options.client,
        signal: extra.signal,
        approver: elicitationApprover(server, extra.requestId),
      });
      return formatExecuteAnswer(response);
    },
  );
  registerDiscoveryTools(server, gateway, options.client ?? null);
  registerCatalogResources(server, gateway);
  registerSkillTools(server, gateway, options.client ?? null);
  compactToolList(server);

  // Servers join after `serve` starts answering; a list_changed sent before the client has
  // initialized would break the protocol's order (a stock client sees a message it cannot place).
  const initialized = () => server.server.getClientVersion() !== undefined;
  for (const method of ["sendToolListChanged", "sendResourceListChanged"] as const) {
    const send = server[method].bind(server);
    server[method] = () => {
      if (initialized()) send();
    };
  }
  const stop = gateway.catalog.onChange(() => {
    // update() notifies connected clients with tools/list_changed.
    executeCode.update({ description: executeCodeDescription(gateway.catalog, gateway.statuses()) });
    if (server.isConnected()) server.sendResourceListChanged();
  });
  const previousOnClose = server.server.onclose;
  server.server.onclose = () => {
    stop();
    previousOnClose?.();
  };
  return server;
}
