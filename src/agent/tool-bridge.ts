import { Client, type Tool } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { messageOf } from "../errors/message-of.ts";
import type { Gateway } from "../gateway/gateway.ts";
import type { ModelTool, ModelToolResult, ModelToolUse } from "../llm/types.ts";
import { createMcpServer } from "../server/create-mcp-server.ts";
import { wireFrontEnd } from "../server/forwarding/wire-front-end.ts";
import { AgentError } from "./errors.ts";
import { resultText } from "./result-text.ts";

/**
 * How long one tool call may take before the client gives up. The gateway bounds
 * programs itself (`sandbox.timeoutMs`); this only catches a front end that never answers.
 */
export const TOOL_CALL_TIMEOUT_MS = 10 * 60_000;

/** The gateway's MCP tools as the model sees them: listed, and called by a tool use. */
export interface ToolBridge {
  /** The selected tools as the gateway lists them now (servers joining change execute_code's description). */
  list(): Promise<ModelTool[]>;
  /**
   * Runs one tool use. Failures the model can act on (an unknown tool, bad
   * arguments, a protocol error) come back as an `isError` result; an abort throws.
   */
  call(use: ModelToolUse, signal?: AbortSignal): Promise<ModelToolResult>;
  close(): Promise<void>;
}

/**
 * An SDK client connected to the gateway's own MCP server (createMcpServer, with
 * its front-end wiring: pass-through and forwarding) over an in-memory link, so
 * the agent sees exactly the tools, descriptions, schemas and answers any MCP
 * client sees, and its cancellations stop executions the way theirs do.
 */
export async function connectToolBridge(
  gateway: Gateway,
  options: { select: (name: string) => boolean },
): Promise<ToolBridge> {
  wireFrontEnd(gateway);
  const server = createMcpServer(gateway);
  // No sampling or elicitation: nobody is there to answer (policy approvals are refused).
  const client = new Client({ name: "toolscript-agent", version: "1" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
  } catch (error) {
    await Promise.allSettled([client.close(), server.close()]);
    throw new AgentError(
      "agent.tools_unavailable",
      `cannot connect to the gateway: ${messageOf(error)}`,
      {},
      {
        cause: error,
      },
    );
  }
  let offered = new Set<string>();
  return {
    async list() {
      let tools: Tool[];
      try {
        ({ tools } = await client.listTools(undefined, { cacheMode: "bypass" }));
      } catch (error) {
        throw new AgentError(
          "agent.tools_unavailable",
          `tools/list failed: ${messageOf(error)}`,
          {},
          {
            cause: error,
          },
        );
      }
      const selected = tools.filter((tool) => options.select(tool.name));
      offered = new Set(selected.map((tool) => tool.name));
      return selected.map(modelTool);
    },
    async call(use, signal) {
      const failed = (text: string): ModelToolResult => ({
        type: "tool_result",
        toolUseId: use.id,
        content: text,
        isError: true,
      });
      if (!offered.has(use.name)) {
        return failed(`unknown tool "${use.name}"; the tools are: ${[...offered].join(", ")}`);
      }
      try {
        const result = await client.callTool(
          { name: use.name, arguments: use.input },
          { ...(signal && { signal }), timeout: TOOL_CALL_TIMEOUT_MS },
        );
        return {
          type: "tool_result",
          toolUseId: use.id,
          content: resultText(result),
          ...(result.isError === true && { isError: true }),
        };
      } catch (error) {
        if (signal?.aborted) throw error;
        return failed(`${use.name} failed: ${messageOf(error)}`);
      }
    },
    async close() {
      await Promise.allSettled([client.close(), server.close()]);
    },
  };
}

function modelTool(tool: Tool): ModelTool {
  return {
    name: tool.name,
    description: tool.description ?? tool.title ?? "",
    inputSchema: tool.inputSchema as Record<string, unknown>,
  };
}
