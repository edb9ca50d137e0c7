import type { CallToolResult, McpServer, ProgressToken } from "@modelcontextprotocol/server";
import { z } from "zod";
import { CodedError } from "../errors/coded-error.ts";
import { messageOf } from "../errors/message-of.ts";
import type { Gateway } from "../gateway/gateway.ts";
import { createSamplingClient } from "../llm/sampling-client.ts";
import type { ModelClient } from "../llm/types.ts";
import type { SolveResponse } from "../solve/solve-task.ts";
import type { Caller } from "./caller.ts";
import { type ClientConnection, isModernRequest, trackKey } from "./client-connection.ts";
import { elicitationApprover } from "./elicit-approval.ts";
import { formatExecuteAnswer } from "./format-answer.ts";

export const SOLVE_TASK = "solve_task";

/**
 * The model for a call: the gateway's (`toolscript.llm`), else the client's own
 * through MCP sampling when it declared it, sent as related to the call in
 * flight (`relatedTo`) so it travels on that call's stream; else none.
 */
function modelFor(
  gateway: Gateway,
  connection: ClientConnection,
  relatedTo?: ProgressToken,
): ModelClient | undefined {
  if (gateway.model) return gateway.model;
  const send = connection.sampling();
  if (!send) return undefined;
  return createSamplingClient({
    send: (params, options) => send(params, { ...options, ...(relatedTo !== undefined && { relatedTo }) }),
    capabilities: connection.capabilities(),
  });
}

/**
 * `solve_task`: a task in words and its arguments; runs the saved skill or tool
 * that covers it, else has a model write one (checked, run, saved for next time).
 * Listed only when a model can answer: one is configured, or the client declared
 * sampling — every listed definition costs each agent's starting context.
 */
export function registerSolveTaskTool(
  server: McpServer,
  gateway: Gateway,
  caller: Caller,
  connection: ClientConnection,
): void {
  const tool = server.registerTool(
    SOLVE_TASK,
    {
      // Kept short: every meta-tool definition sits in the agent's starting context.
      description:
        "Do a task described in words with its arguments: runs the saved skill or tool that does it, else a model writes a TypeScript tool for it (type-checked, run in the sandbox, saved and reused for similar tasks). Returns the run's result.",
      inputSchema: z.object({
        task_description: z.string().min(1),
        arguments: z.record(z.string(), z.unknown()).optional(),
        expected_outcome: z.string().optional(),
        session: z.string().min(1).max(200).optional(),
      }),
      annotations: { openWorldHint: true },
    },
    async (args, ctx): Promise<CallToolResult> => {
      const session = args.session ?? caller.defaultSession(ctx);
      const refused = await gateway.sessionRefusal(session, caller.client, { claim: true });
      if (refused) return { content: [{ type: "text", text: refused }], isError: true };
      const untrack = connection.track(ctx);
      try {
        const solved = await gateway.solveTask({
          task: args.task_description,
          args: args.arguments,
          expectedOutcome: args.expected_outcome,
          session,
          client: caller.client ?? undefined,
          signal: ctx.mcpReq.signal,
          // 2026-07-28 requests cannot be asked mid-call: a generated tool needing approval is refused.
          approver: isModernRequest(ctx) ? undefined : elicitationApprover(server, ctx.mcpReq.id),
          model: modelFor(gateway, connection, trackKey(ctx)),
        });
        return solveAnswer(solved);
      } catch (error) {
        // SolveError, the model's ModelError (llm.*), a skill's SkillCheckError: each with its code.
        const coded = error instanceof CodedError ? error : undefined;
        const text = coded
          ? `${coded.name} (${coded.code}): ${coded.message}`
          : `solve_task failed: ${messageOf(error)}`;
        return {
          content: [{ type: "text", text }],
          structuredContent: { error: { code: coded?.code ?? "solve.failed", message: messageOf(error) } },
          isError: true,
        };
      } finally {
        untrack();
      }
    },
  );
  if (modelFor(gateway, connection) !== undefined) return;
  tool.disable();
  const previous = server.server.oninitialized;
  server.server.oninitialized = () => {
    previous?.();
    if (modelFor(gateway, connection) !== undefined) tool.enable();
  };
}

/** The execution's answer, headed by what ran and how it was found. */
function solveAnswer(solved: SolveResponse): CallToolResult {
  const answer = formatExecuteAnswer(solved.execution);
  const head =
    solved.how === "generated"
      ? `Generated ${solved.name} with ${solved.generated?.model ?? "the model"}${solved.generated?.repaired ? " (after one repair)" : ""}; saved as a skill: import run from "skills/${solved.name}".`
      : `Reused ${solved.kind} ${solved.name}${solved.similarity === undefined ? " (same task)" : ` (covers ${Math.round(solved.similarity * 100)}% of the task)`}.`;
  const [first, ...rest] = answer.content;
  const content =
    first?.type === "text" ? [{ ...first, text: `${head}\n${first.text}` }, ...rest] : answer.content;
  return {
    ...answer,
    content,
    structuredContent: {
      ...(answer.structuredContent as Record<string, unknown>),
      solvedBy: {
        how: solved.how,
        kind: solved.kind,
        name: solved.name,
        ...(solved.similarity !== undefined && { similarity: solved.similarity }),
        ...(solved.generated && { generated: solved.generated }),
      },
    },
  };
}
