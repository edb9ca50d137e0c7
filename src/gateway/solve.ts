import { cachedModelClient } from "../llm/answer-cache.ts";
import type { ModelClient } from "../llm/types.ts";
import { type SolveRequest, type SolveResponse, solveTask } from "../solve/solve-task.ts";
import { GatewayError } from "./errors.ts";
import type { Gateway } from "./gateway.ts";
import { DEFAULT_SESSION } from "./types.ts";

const DAY_MS = 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;

export interface GatewaySolveRequest extends Omit<SolveRequest, "session" | "model"> {
  /** Default: the gateway's default session. */
  session?: string | undefined;
  /** The model that writes a tool when none fits; none: no generation. */
  model?: ModelClient | undefined;
}

/**
 * solve_task over a gateway: its search, skills, executions and store, with the
 * model's answers cached in the store by exact request (`solve.answerCacheTtlHours`).
 */
export function solveWithGateway(
  gateway: Gateway,
  approveGenerated: boolean,
  request: GatewaySolveRequest,
): Promise<SolveResponse> {
  const store = gateway.store;
  if (!store) throw new GatewayError("gateway.closed", "solve_task needs the store: start the gateway first");
  const settings = gateway.config.settings.solve;
  const chosen = request.model;
  return solveTask(
    {
      settings: {
        reuseSimilarity: settings.reuseSimilarity,
        generatedTtlMs: settings.generatedTtlDays * DAY_MS,
        approveGenerated,
      },
      search: (query, options) => gateway.search(query, options),
      skill: (name, session) => gateway.skills.get(name, session),
      checkSkill: (name, code, session) => gateway.skills.check(name, code, session),
      saveSkill: (skill) => gateway.skills.save(skill),
      execute: (execution) => gateway.execute(execution),
      cache: store.caches,
      now: Date.now,
    },
    {
      ...request,
      session: request.session ?? DEFAULT_SESSION,
      model:
        chosen && settings.answerCacheTtlHours > 0
          ? cachedModelClient(chosen, store.caches, settings.answerCacheTtlHours * HOUR_MS)
          : chosen,
    },
  );
}
