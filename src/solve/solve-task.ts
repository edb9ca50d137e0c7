import { renderToolDeclaration } from "../catalog/declaration/tool-declaration.ts";
import type { ExecuteRequest, ExecuteResponse } from "../gateway/types.ts";
import type { ModelClient, ModelUsage } from "../llm/types.ts";
import type { Approver } from "../policy/approval.ts";
import type { ToolMatch } from "../search/index.ts";
import type { CheckedSkill, SavedSkill, SaveSkillRequest } from "../skills/skill-library.ts";
import type { CacheStore } from "../store/domains.ts";
import type { SkillOrigin, SkillVersion } from "../store/types.ts";
import { argumentsType } from "./arguments-type.ts";
import { SolveError } from "./errors.ts";
import { generateTool } from "./generate-tool.ts";
import { generatedSkillName, normalizeTask } from "./generated-name.ts";
import { matchText, taskSimilarity } from "./task-similarity.ts";

/** Cache namespace of generated tools by task (store cache entries). */
export const TASK_CACHE = "solve.task";
/** Longest task description read: a task says what it needs in far fewer. */
export const MAX_TASK_CHARS = 2_000;
/** Tools whose declarations the model is shown. */
const TOOLS_SHOWN = 5;
/** Candidates search is asked for. */
const CANDIDATES = 8;

export interface SolveSettings {
  /** Task similarity (0..1, task-similarity.ts) from which a saved skill or a tool is taken for the task. */
  reuseSimilarity: number;
  /** How long a generated tool is reused for new tasks, and the task → tool cache kept. */
  generatedTtlMs: number;
  /** Ask for an approval before a generated tool's first run. */
  approveGenerated: boolean;
}

/** What solve_task needs of the gateway (gateway.ts wires it). */
export interface SolveDeps {
  settings: SolveSettings;
  search(query: string, options: { limit: number; session: string }): ToolMatch[];
  skill(name: string, session: string): SkillVersion | undefined;
  checkSkill(name: string, code: string, session: string): Promise<CheckedSkill>;
  saveSkill(request: SaveSkillRequest): Promise<SavedSkill>;
  execute(request: ExecuteRequest): Promise<ExecuteResponse>;
  /** Where generated tools are kept by task (the store's cache entries). */
  cache: Pick<CacheStore, "get" | "put">;
  now(): number;
}

export interface SolveRequest {
  task: string;
  /** The task's inputs, passed to the tool that solves it. */
  args?: Record<string, unknown> | undefined;
  expectedOutcome?: string | undefined;
  session: string;
  /** The HTTP client asking (its name); absent: the local client. */
  client?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Asks a person (MCP elicitation); needed when generated tools need an approval. */
  approver?: Approver | undefined;
  /** The model that writes a tool when none fits; absent: no generation. */
  model?: ModelClient | undefined;
}

export interface SolveResponse {
  /** `reused`: a saved skill or a tool fitted the task; `generated`: a model wrote one now. */
  how: "reused" | "generated";
  /** `skill` (saved or generated) or `tool`. */
  kind: "skill" | "tool";
  /** The skill's name, or `server/tool`. */
  name: string;
  /** How much of the task a reused match covers (task-similarity.ts); absent for a generated tool and a cache hit. */
  similarity?: number;
  /** The run of that skill or tool with the task's arguments. */
  execution: ExecuteResponse;
  generated?: { provider: string; model: string; repaired: boolean; usage: ModelUsage };
}

/**
 * solve_task: run the saved skill or tool that fits a task described in words,
 * else have a model write one, check it, run it, and keep it as a generated
 * skill that later tasks close enough reuse without a model (also after a restart).
 */
export async function solveTask(deps: SolveDeps, request: SolveRequest): Promise<SolveResponse> {
  const task = checkTask(request.task);
  const args = checkArgs(request.args);
  const argNames = Object.keys(args).sort();
  const base = { session: request.session, client: request.client, signal: request.signal };
  const runSkill = (name: string, draft?: { code: string; declaration: string }) =>
    deps.execute({
      ...base,
      code: `import run from "skills/${name}";\nreturn await run(context.args);`,
      context: { args },
      approver: request.approver,
      ...(draft && { draftSkills: [{ name, ...draft }] }),
    });

  const cacheKey = `${normalizeTask(task)}\u0000${argNames.join(",")}`;
  const cached = await deps.cache.get(TASK_CACHE, cacheKey);
  const cachedSkill = cached === undefined ? undefined : deps.skill(cached, request.session);
  if (cachedSkill && reusable(cachedSkill, argNames, deps.now())) {
    return {
      how: "reused",
      kind: "skill",
      name: cachedSkill.name,
      execution: await runSkill(cachedSkill.name),
    };
  }

  const matches = deps.search(task, { limit: CANDIDATES, session: request.session });
  for (const match of matches) {
    if (match.skill) {
      const skill = deps.skill(match.skill.name, request.session);
      if (!skill || !match.skill.exports.includes("default") || !reusable(skill, argNames, deps.now()))
        continue;
      const similarity = skill.origin
        ? taskSimilarity(task, skill.origin.task, { bothWays: true })
        : taskSimilarity(task, matchText(match, skill.description));
      if (similarity < deps.settings.reuseSimilarity) continue;
      const execution = await runSkill(skill.name);
      return { how: "reused", kind: "skill", name: skill.name, similarity, execution };
    }
    const similarity = taskSimilarity(task, matchText(match));
    if (similarity < deps.settings.reuseSimilarity) continue;
    const execution = await deps.execute({
      ...base,
      code: `return await ${match.result.path}(context.args);`,
      context: { args },
      approver: request.approver,
    });
    // Arguments the tool does not take: it does not fit this task after all.
    if (execution.error?.name === "ValidationError") continue;
    const name = `${match.result.server}/${match.result.tool}`;
    return { how: "reused", kind: "tool", name, similarity, execution };
  }

  if (!request.model) {
    throw new SolveError(
      "solve.no_model",
      "no saved skill or tool fits this task, and no model can write one: configure toolscript.llm, or connect with a client that answers sampling requests",
      { task },
    );
  }
  const name = generatedSkillName(task);
  const generated = await generateTool({
    model: request.model,
    name,
    input: {
      task,
      argumentsType: argumentsType(args),
      expectedOutcome: request.expectedOutcome,
      toolDeclarations: matches
        .flatMap((match) => (match.tool ? [renderToolDeclaration(match.tool)] : []))
        .slice(0, TOOLS_SHOWN),
    },
    check: (code) => deps.checkSkill(name, code, request.session),
    approve: deps.settings.approveGenerated ? (code) => approveFirstRun(request, name, code) : undefined,
    run: (code, declaration) => runSkill(name, { code, declaration }),
    signal: request.signal,
  });
  const origin: SkillOrigin = {
    kind: "generated",
    task,
    ...(request.expectedOutcome !== undefined && { expectedOutcome: request.expectedOutcome }),
    argNames,
    provider: request.model.provider,
    model: generated.model,
    repaired: generated.repaired,
    expiresAt: deps.now() + deps.settings.generatedTtlMs,
  };
  await deps.saveSkill({ name, code: generated.code, description: task, session: request.session, origin });
  await deps.cache.put(TASK_CACHE, cacheKey, name, deps.settings.generatedTtlMs);
  return {
    how: "generated",
    kind: "skill",
    name,
    execution: generated.execution,
    generated: {
      provider: request.model.provider,
      model: generated.model,
      repaired: generated.repaired,
      usage: generated.usage,
    },
  };
}

/**
 * A skill a task may run: TypeScript, and, when generated, still within its TTL
 * and made for the same argument names (a tool written for `{a, b}` is not one for `{text}`).
 */
function reusable(skill: SkillVersion, argNames: readonly string[], now: number): boolean {
  if (skill.language !== "typescript") return false;
  const origin = skill.origin;
  if (!origin) return true;
  return origin.expiresAt > now && origin.argNames.join(",") === argNames.join(",");
}

async function approveFirstRun(request: SolveRequest, name: string, code: string): Promise<void> {
  const approved =
    request.approver !== undefined &&
    (await request.approver(
      {
        server: "toolscript",
        tool: "solve_task",
        args: { skill: name, code },
        reason: `run ${name}, a tool a model just wrote for this task (toolscript.llm.approveGenerated)`,
      },
      request.signal ?? new AbortController().signal,
    ));
  if (!approved) {
    throw new SolveError(
      "solve.not_approved",
      request.approver
        ? `the generated tool ${name} was not approved; it did not run and was not saved`
        : `the generated tool ${name} needs an approval before its first run (toolscript.llm.approveGenerated), and this client cannot be asked (no elicitation)`,
      { skill: name, code },
    );
  }
}

function checkTask(task: unknown): string {
  if (typeof task !== "string" || task.trim() === "")
    throw new SolveError("solve.bad_request", "task_description: a non-empty string is required");
  if (task.length > MAX_TASK_CHARS)
    throw new SolveError(
      "solve.bad_request",
      `task_description: ${task.length} characters; at most ${MAX_TASK_CHARS} are read`,
    );
  return task.trim();
}

function checkArgs(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== "object" || Array.isArray(args))
    throw new SolveError("solve.bad_request", "arguments: an object of named values is required");
  return args as Record<string, unknown>;
}
