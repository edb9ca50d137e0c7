import type { Catalog } from "../catalog/catalog.ts";
import type { CatalogTool } from "../catalog/types.ts";
import type { HostBridge } from "../sandbox/types.ts";
import { UpstreamError } from "../upstream/errors.ts";
import { composeMiddleware } from "./compose.ts";
import { BridgeError, type BridgeErrorCode } from "./errors.ts";
import { createFeatureBridge, type FeatureBridgeOptions } from "./feature-bridge.ts";
import type { CallProgressListener } from "./progress.ts";
import type { ResourceRoutes } from "./resource-routes.ts";
import { shapeResult } from "./shape-result.ts";
import type { ToolCall, ToolCallMiddleware, ToolCallStats, Upstream } from "./types.ts";

export const DEFAULT_MAX_TOOL_CALLS = 1000;

export interface ExecutionBridgeOptions {
  catalog: Catalog;
  upstream: Upstream;
  /** Steps around every call, outermost first. */
  middleware?: readonly ToolCallMiddleware[];
  maxToolCalls?: number;
  /** Per-call timeout toward the upstream; the server's or gateway's default when absent. */
  callTimeoutMs?: number;
  searchTools?: HostBridge["searchTools"];
  /** Why a server has no tools right now (e.g. "restarting"), for a clearer unknown-tool error. */
  serverProblem?: (server: string) => string | undefined;
  /**
   * Waits while a server is still making its first connection (bounded by its
   * connect timeout), so a call made just after start-up is not refused.
   */
  waitForServer?: (server: string, signal: AbortSignal) => Promise<void>;
  /**
   * The `resources` and `prompts` globals: their requests run through the same middleware and
   * count against the same call cap. `routes` also learns the `resource_link`s tool results return.
   */
  features?: Omit<FeatureBridgeOptions, "catalog" | "invoke" | "timeoutMs"> & { routes: ResourceRoutes };
  /** Told of servers' progress and of each finished call; absent, servers are not asked for progress. */
  onProgress?: CallProgressListener | undefined;
}

export interface ExecutionBridge {
  bridge: HostBridge;
  stats: ToolCallStats;
}

/**
 * The host side of one execution's tool calls: finds the tool, enforces the
 * per-execution call cap, runs the middleware chain, calls the upstream and
 * shapes its result. Every failure becomes a BridgeError the code can catch.
 */
export function createExecutionBridge(options: ExecutionBridgeOptions): ExecutionBridge {
  const maxToolCalls = options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS;
  const stats: ToolCallStats = { calls: 0, failed: 0 };
  const routes = options.features?.routes;
  const onProgress = options.onProgress;
  const handler = composeMiddleware(options.middleware ?? [], async (call: ToolCall) => {
    if (call.operation) return call.operation(call);
    const tool = call.tool;
    const result = await options.upstream.callTool(tool.server, tool.tool, call.args, {
      signal: call.signal,
      timeoutMs: options.callTimeoutMs,
      ...(onProgress && { onProgress: (progress) => onProgress({ kind: "upstream", tool, progress }) }),
    });
    routes?.rememberLinks(result, call.tool.server);
    return shapeResult(call.tool, result);
  });
  /** One request through the middleware, under the execution's call cap. */
  const invoke = async (
    entry: CatalogTool,
    args: unknown,
    signal: AbortSignal,
    operation?: ToolCall["operation"],
  ): Promise<unknown> => {
    if (stats.calls >= maxToolCalls) {
      throw new BridgeError(
        "LimitError",
        "limit.tool_calls",
        `this execution reached its limit of ${maxToolCalls} tool calls`,
        { limit: maxToolCalls },
      );
    }
    stats.calls++;
    let ok = false;
    try {
      const value = await handler({ tool: entry, args, signal, ...(operation && { operation }) });
      ok = true;
      return value;
    } catch (error) {
      stats.failed++;
      throw toBridgeError(error, entry.server, entry.tool);
    } finally {
      onProgress?.({ kind: "done", tool: entry, ok, calls: stats.calls });
    }
  };

  const bridge: HostBridge = {
    async callTool(server, tool, args, signal) {
      const find = () => options.catalog.server(server)?.tools.find((candidate) => candidate.tool === tool);
      let entry = find();
      if (!entry && options.waitForServer) {
        await options.waitForServer(server, signal);
        entry = find();
      }
      if (!entry) {
        const problem = options.serverProblem?.(server);
        if (problem) {
          throw new BridgeError("ToolError", "tool.unavailable", `server "${server}" is ${problem}`, {
            server,
            tool,
          });
        }
        throw new BridgeError("ToolError", "tool.unknown", `no tool "${tool}" on server "${server}"`, {
          server,
          tool,
        });
      }
      return invoke(entry, args, signal);
    },
    ...(options.searchTools && { searchTools: options.searchTools }),
    ...(options.features &&
      createFeatureBridge({
        ...options.features,
        catalog: options.catalog,
        invoke,
        timeoutMs: options.callTimeoutMs,
      })),
  };
  return { bridge, stats };
}

const UPSTREAM_CODES: Record<string, BridgeErrorCode> = {
  "upstream.timeout": "tool.timeout",
  "upstream.cancelled": "tool.cancelled",
  "upstream.unavailable": "tool.unavailable",
  "upstream.message_too_large": "tool.result_too_large",
};

function toBridgeError(error: unknown, server: string, tool: string): BridgeError {
  if (error instanceof BridgeError) return error;
  if (error instanceof UpstreamError) {
    return new BridgeError(
      "ToolError",
      UPSTREAM_CODES[error.code] ?? "tool.failed",
      error.message,
      error.data,
      {
        cause: error,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new BridgeError(
    "ToolError",
    "tool.failed",
    `${server}/${tool} failed: ${message}`,
    { server, tool },
    {
      cause: error,
    },
  );
}
