import {
  type CallToolResult,
  type InputRequiredResult,
  McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { CallProgressListener } from "../bridge/progress.ts";
import type { Gateway } from "../gateway/gateway.ts";
import type { Approver } from "../policy/approval.ts";
import type { RateTake } from "../store/domains.ts";
import { approverFrom, roundsOf } from "./approval-rounds.ts";
import { callerOf } from "./caller.ts";
import { connectionOf, isModernRequest, trackKey } from "./client-connection.ts";
import { clientTraceOf } from "./client-trace.ts";
import { compactToolList } from "./compact-tool-list.ts";
import { registerDiscoveryTools } from "./discovery-tools.ts";
import { elicitationApprover } from "./elicit-approval.ts";
import { EXECUTE_CODE, executeCodeDescription, executeCodeInput } from "./execute-code-tool.ts";
import { executionProgress } from "./execution-progress.ts";
import { formatExecuteAnswer } from "./format-answer.ts";
import { routerOf } from "./forwarding/wire-front-end.ts";
import { applyFrontEndExtensions } from "./front-end-extensions.ts";
import { guardListChanged } from "./list-changed.ts";
import { registerCatalogResources } from "./resources.ts";
import { attachSkillsExtension } from "./skills-extension.ts";
import { registerSkillTools } from "./skills-tool.ts";
import { registerSolveTaskTool } from "./solve-task-tool.ts";

export const SERVER_INFO = { name: "toolscript", version: "0.1.0" } as const;

/**
 * Cache hints for the 2026-07-28 list results: the lists change when servers
 * come and go, so clients may keep them briefly, each for itself (skills are per session).
 */
const LIST_CACHE = { ttlMs: 5_000, cacheScope: "private" } as const;

export interface McpServerOptions {
  /**
   * Checked before each execution (e.g. an HTTP client's rate); a refusal becomes an
   * error answer, and so does a rejection (the shared store failed: fail closed).
   */
  admitExecution?: () => Promise<RateTake>;
  /**
   * The HTTP client this server answers (its name in `toolscript.server.http.clients`):
   * the sessions it names must be its own. Absent: the local client (stdio).
   */
  client?: string | undefined;
  /**
   * Whether this server serves one 2026-07-28 request (stateless HTTP): it then
   * keeps no catalog listener (the handler notifies `subscriptions/listen` streams instead).
   */
  perRequest?: boolean;
}

/**
 * One MCP server exposing the gateway's meta-tools and catalog resources: one
 * per connection (stdio, a 2025-era HTTP session) or per request (2026-07-28
 * HTTP). What extendFrontEnd registered for the gateway (pass-through of
 * upstream prompts, resources, completions, subscriptions) is added before it
 * connects, while capabilities can still be declared. Its client handle
 * (capabilities, logging, progress, requests to the client) is `connectionOf(server)`.
 */
export function createMcpServer(gateway: Gateway, options: McpServerOptions = {}): McpServer {
  const caller = callerOf(options.client);
  const server = new McpServer(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: true },
      resources: { listChanged: true },
      logging: {},
    },
    cacheHints: {
      "tools/list": LIST_CACHE,
      "resources/list": LIST_CACHE,
      "resources/templates/list": LIST_CACHE,
      "prompts/list": LIST_CACHE,
    },
    instructions:
      "ToolScript gateway: find tools with search_tools (or list_tools), read their declarations with describe_tools, then call many of them in one program with execute_code.",
  });
  const connection = connectionOf(server);
  const rounds = roundsOf(gateway);

  const execute =
    (args: z.infer<typeof executeCodeSchema>, ctx: ServerContext, onProgress?: CallProgressListener) =>
    async (
      approver: Approver | undefined,
      signal: AbortSignal,
      inFlight: ((server: string) => () => void) | undefined,
    ) =>
      formatExecuteAnswer(
        await gateway.execute({
          code: args.code,
          language: args.language,
          timeoutMs: args.timeoutMs,
          context: args.context,
          maxTokens: args.maxTokens,
          strategy: args.strategy,
          typecheck: args.typecheck,
          // The explicit `session` outlives reconnects; else the connection's (or client's) default.
          session: args.session ?? caller.defaultSession(ctx),
          client: options.client,
          signal,
          approver,
          inFlight,
          onProgress,
          trace: clientTraceOf(ctx),
        }),
      );

  const executeCode = server.registerTool(
    EXECUTE_CODE,
    {
      description: executeCodeDescription(gateway.catalog, gateway.statuses()),
      inputSchema: executeCodeSchema,
      annotations: { openWorldHint: true },
    },
    async (args, ctx) => {
      const untrack = connection.track(ctx);
      // Only with a progress token: the client asked for progress of this call.
      const progress = executionProgress(connection, ctx);
      try {
        const state = ctx.mcpReq.requestState<string>();
        // A retry of a call that waited for approvals: no new execution, so no new admission.
        if (typeof state === "string")
          return (await rounds.resume(state, ctx, caller.client)) as CallToolResult | InputRequiredResult;
        let admitted: RateTake = { ok: true };
        try {
          if (options.admitExecution) admitted = await options.admitExecution();
        } catch (error) {
          return executionFailed(error);
        }
        if (!admitted.ok) return rateLimited(admitted.retryInMs);
        const run = execute(args, ctx, progress?.listener);
        // The program's tool calls are in flight on their servers: what those servers ask goes to this client.
        const router = routerOf(gateway);
        if (!isModernRequest(ctx)) {
          const relatedTo = trackKey(ctx);
          return await run(
            elicitationApprover(server, ctx.mcpReq.id),
            ctx.mcpReq.signal,
            router && ((name) => router.begin(name, { connection, relatedTo })),
          );
        }
        // 2026-07-28: no server-to-client requests; approvals and the upstreams' questions are
        // input-required rounds (approvals only if the client can answer elicitations).
        const canElicit = server.server.getClientCapabilities()?.elicitation !== undefined;
        return await rounds.start(
          (ask, signal) =>
            run(
              canElicit ? approverFrom(ask) : undefined,
              signal,
              router && ((name) => router.begin(name, { connection, ask })),
            ).catch(executionFailed),
          ctx,
          caller.client,
        );
      } finally {
        progress?.stop();
        untrack();
      }
    },
  );
  registerDiscoveryTools(server, gateway, caller);
  registerCatalogResources(server, gateway, caller);
  registerSkillTools(server, gateway, caller);
  registerSolveTaskTool(server, gateway, caller, connection);
  attachSkillsExtension(server, gateway, caller);
  // The gateway's own definitions only: passed-through tools (added next) keep every key the upstream sent.
  compactToolList(server);
  // Pass-through and other additions (extendFrontEnd), before connecting: capabilities are declared then.
  applyFrontEndExtensions(gateway, server, connection, caller);
  if (options.perRequest) return server;

  guardListChanged(server, connection);
  const stopCatalog = gateway.catalog.onChange(() => {
    // update() notifies connected clients with tools/list_changed.
    executeCode.update({ description: executeCodeDescription(gateway.catalog, gateway.statuses()) });
    server.sendResourceListChanged();
  });
  // Upstream prompts and resources are listed here only when passed through (pass-through
  // notifies of those). A saved skill changes resources/list (toolscript://skills/, skill://)
  // and skills/list.
  const stopSkills = gateway.skills.onChange(() => server.sendResourceListChanged());
  const previousOnClose = server.server.onclose;
  server.server.onclose = () => {
    stopCatalog();
    stopSkills();
    previousOnClose?.();
  };
  return server;
}

const executeCodeSchema = z.object(executeCodeInput);

function executionFailed(error: unknown) {
  return {
    content: [
      {
        type: "text" as const,
        text: `execution failed: ${error instanceof Error ? error.message : String(error)}`,
      },
    ],
    isError: true,
  };
}

function rateLimited(retryInMs: number) {
  const seconds = Math.ceil(retryInMs / 1000);
  return {
    content: [
      {
        type: "text" as const,
        text: `RateLimited: too many executions from this client; retry in ${seconds} s`,
      },
    ],
    structuredContent: {
      logs: [],
      toolCalls: 0,
      durationMs: 0,
      error: { kind: "runtime", name: "RateLimited", message: `too many executions; retry in ${seconds} s` },
    },
    isError: true,
  };
}
