import type { CallToolResult } from "@modelcontextprotocol/client";
import type { CatalogTool } from "../catalog/types.ts";
import type { UpstreamProgress } from "../upstream/types.ts";

/** The seam to upstream servers: call one tool, get the raw MCP result. */
export interface Upstream {
  callTool(
    server: string,
    tool: string,
    args: unknown,
    options: {
      signal?: AbortSignal | undefined;
      timeoutMs?: number | undefined;
      /** The server's progress of this call; when set, the call asks the server for it. */
      onProgress?: ((progress: UpstreamProgress) => void) | undefined;
    },
  ): Promise<CallToolResult>;
}

/** One tool call on its way from sandboxed code to an upstream server. */
export interface ToolCall {
  tool: CatalogTool;
  args: unknown;
  /** Aborted when the execution ends, times out or is cancelled. */
  signal: AbortSignal;
  /**
   * Set for requests other than tool calls (`resources/read`, `prompts/get`, ...): what the innermost
   * step runs instead of calling the tool, with the call as the middleware passed it on (real values).
   */
  operation?: (call: ToolCall) => Promise<unknown>;
}

/** Resolves to the shaped value the sandboxed code receives. */
export type ToolCallHandler = (call: ToolCall) => Promise<unknown>;

/**
 * A cross-cutting step around every tool call (validation, limits, policy,
 * privacy, audit). Calls `next` to continue, or throws to refuse.
 */
export type ToolCallMiddleware = (call: ToolCall, next: ToolCallHandler) => Promise<unknown>;

/** What one execution's tool calls cost, for the answer's accounting. */
export interface ToolCallStats {
  calls: number;
  failed: number;
}
