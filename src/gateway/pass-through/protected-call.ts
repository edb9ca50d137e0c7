/**
 * A passed-through `tools/call` under the gateway's protections, the same ones
 * a program's call goes through (run-program.ts): audit record (outermost, so
 * refusals are recorded), argument size limit, policy (deny, or ask through the
 * caller's approver), then the upstream connection (its rate limit, concurrency
 * cap and timeout), with configured secrets redacted from the result and errors.
 * No PII tokens: the client sees what the upstream answered, as it would directly.
 */
import { type CallToolResult, ProtocolError } from "@modelcontextprotocol/server";
import { auditMiddleware } from "../../audit/audit-middleware.ts";
import { argumentLimitMiddleware } from "../../bridge/argument-limit.ts";
import { composeMiddleware } from "../../bridge/compose.ts";
import type { CatalogTool, ToolDefinition } from "../../catalog/types.ts";
import { anomalyGuardMiddleware } from "../../ops/anomaly/guard-middleware.ts";
import type { PolicyAction } from "../../policy/policy.ts";
import { policyMiddleware } from "../../policy/policy-middleware.ts";
import type { PassThroughCallOptions } from "../../server/pass-through/source.ts";
import type { UpstreamConnection } from "../../upstream/connection.ts";
import type { ProgramDeps } from "../run-program.ts";

/** Audit records of pass-through calls from a front end that names no caller. */
export const PASS_THROUGH_SESSION = "pass-through";

export async function protectedCall(
  deps: ProgramDeps,
  connection: UpstreamConnection,
  name: string,
  args: Record<string, unknown>,
  options: PassThroughCallOptions,
): Promise<CallToolResult> {
  const server = connection.name;
  const caller = options.caller ?? { client: null, session: PASS_THROUGH_SESSION };
  const decisions = new WeakMap<object, PolicyAction>();
  const run = composeMiddleware(
    [
      auditMiddleware({
        log: deps.audit(),
        violations: deps.violations,
        session: caller.session,
        client: caller.client,
        decisions,
      }),
      argumentLimitMiddleware(deps.config.settings.upstream.maxArgumentBytes),
      anomalyGuardMiddleware({
        responses: deps.anomalyResponses,
        session: caller.session,
        client: caller.client,
        approver: caller.approver,
        policy: deps.policy,
      }),
      policyMiddleware({
        policy: deps.policy,
        approver: caller.approver,
        onDecision: (call, action) => decisions.set(call, action),
      }),
    ],
    async (call) => {
      try {
        const result = await connection.callTool(name, call.args, {
          signal: call.signal,
          ...(caller.capabilities && { clientCapabilities: answerable(caller.capabilities) }),
          ...(options.onProgress && { onProgress: options.onProgress }),
        });
        return deps.redactor.redactValue(result);
      } catch (error) {
        throw upstreamFailure(deps, error);
      }
    },
  );
  return (await run({
    tool: catalogTool(deps, server, name),
    args,
    signal: options.signal,
  })) as CallToolResult;
}

/**
 * The upstream's JSON-RPC error (unknown tool, invalid arguments) stays one, so the
 * client sees the code it would see directly; any other failure keeps its message.
 * Both are redacted of configured secrets.
 */
export function upstreamFailure(deps: ProgramDeps, error: unknown): Error {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const rpc = [error, cause].find(
    (candidate): candidate is { code: number; message: string; data?: unknown } =>
      typeof candidate === "object" &&
      candidate !== null &&
      Number.isInteger((candidate as { code?: unknown }).code) &&
      typeof (candidate as { message?: unknown }).message === "string",
  );
  if (rpc) {
    return new ProtocolError(
      rpc.code,
      deps.redactor.redact(rpc.message.replace(/^MCP error -?\d+: /, "")),
      deps.redactor.redactValue(rpc.data),
    );
  }
  const copy = new Error(deps.redactor.redact(error instanceof Error ? error.message : String(error)));
  copy.name = error instanceof Error ? error.name : "Error";
  return copy;
}

/** Of what the client declared, what a server may ask it through the gateway. */
function answerable(capabilities: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    ["sampling", "elicitation", "roots"].flatMap((key) =>
      capabilities[key] === undefined ? [] : [[key, capabilities[key]]],
    ),
  );
}

/** The catalog's entry for the tool (policy reads its annotations); a stand-in for a name the server did not list. */
function catalogTool(deps: ProgramDeps, server: string, name: string): CatalogTool {
  const entry = deps.catalog.server(server);
  const listed = entry?.tools.find((tool) => tool.tool === name);
  if (listed) return listed;
  // Still sent: the upstream answers an unknown name with its own error, as it would directly.
  const definition: ToolDefinition = { name, inputSchema: { type: "object" } };
  const serverId = entry?.serverId ?? server;
  return { server, tool: name, serverId, toolId: name, path: `tools.${serverId}.${name}`, definition };
}
