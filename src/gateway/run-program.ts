/**
 * One program's run, from source to the sandbox's result: compile (TypeScript;
 * Python is compiled inside its sandbox), wait for servers the program names
 * that are still starting, type-check, build the execution's bridge (tool
 * calls, resources and prompts through the middleware), run it in its tier.
 * The gateway (gateway.ts) wraps it in the execution gate, audit and answer.
 */
import { type Context, ROOT_CONTEXT } from "@opentelemetry/api";
import type { AuditLog } from "../audit/audit-log.ts";
import { auditMiddleware } from "../audit/audit-middleware.ts";
import type { ViolationCounter } from "../audit/violations.ts";
import { argumentLimitMiddleware } from "../bridge/argument-limit.ts";
import { createExecutionBridge } from "../bridge/execution-bridge.ts";
import { inFlightMiddleware } from "../bridge/in-flight.ts";
import { secretRedactionMiddleware } from "../bridge/redact-secrets.ts";
import { serializeResultMiddleware } from "../bridge/serialize-result.ts";
import type { ArgumentValidator } from "../bridge/validate.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { CatalogTool } from "../catalog/types.ts";
import type { CompileCache } from "../compile/compile-cache.ts";
import type { ProgramTypeChecker } from "../compile/type-check.ts";
import type { Config } from "../config/schema.ts";
import { anomalyGuardMiddleware } from "../ops/anomaly/guard-middleware.ts";
import type { SessionResponses } from "../ops/anomaly/session-responses.ts";
import { toolCallTracing } from "../ops/tracing/tool-call-span.ts";
import type { CallLedger } from "../output/accounting.ts";
import { accountingMiddleware } from "../output/accounting-middleware.ts";
import type { Policy, PolicyAction } from "../policy/policy.ts";
import { policyMiddleware } from "../policy/policy-middleware.ts";
import { privacyMiddleware } from "../privacy/middleware.ts";
import type { PythonRuntime } from "../sandbox/python/runtime.ts";
import type { ExecutionResult, SandboxRuntime } from "../sandbox/types.ts";
import { MAX_QUERY_CHARS } from "../search/index.ts";
import type { SecretRedactor } from "../secrets/redactor.ts";
import type { SkillLibrary } from "../skills/skill-library.ts";
import type { UpstreamManager } from "../upstream/manager.ts";
import { capOutput } from "./cap-output.ts";
import { namesToolsOf, withPendingTools } from "./pending-tools.ts";
import { guardProgress } from "./progress-guard.ts";
import type { SessionStates } from "./session-state.ts";
import type { DraftSkill, ExecuteRequest, ExecuteResponse } from "./types.ts";
import type { UpstreamFeatureGlue } from "./upstream-features.ts";

/** What a run needs of the gateway: its parts, shared by every execution. */
export interface ProgramDeps {
  config: Config;
  catalog: Catalog;
  upstream: UpstreamManager;
  skills: SkillLibrary;
  compiled: CompileCache;
  typeChecker: ProgramTypeChecker;
  validator: ArgumentValidator;
  policy: Policy;
  redactor: SecretRedactor;
  privacyExclude: (tool: CatalogTool) => boolean;
  violations: ViolationCounter;
  /** The responses (approve, block) imposed on sessions by anomaly detection. */
  anomalyResponses: SessionResponses;
  states: SessionStates;
  features: UpstreamFeatureGlue;
  /** The audit log in use now (it is replaced once the store opens). */
  audit(): AuditLog;
  sandboxRuntime(): Promise<SandboxRuntime>;
  pythonRuntime(): Promise<PythonRuntime>;
  /** The Python skills a session sees, by module name; undefined when there are none. */
  pythonSkills(session: string): Record<string, string> | undefined;
}

export async function runProgram(
  deps: ProgramDeps,
  request: ExecuteRequest,
  session: string,
  client: string | null,
  ledger: CallLedger,
  /** The execution's span context (tracing): the parent of each call's span. */
  trace: Context = ROOT_CONTEXT,
): Promise<ExecuteResponse> {
  const started = performance.now();
  const language = request.language ?? "typescript";
  const finish = (result: ExecutionResult, calls = { calls: 0, failed: 0 }): ExecuteResponse => ({
    ...result,
    session,
    durationMs: performance.now() - started,
    toolCalls: calls.calls,
    failedToolCalls: calls.failed,
    toolResultBytes: result.toolResultBytes ?? 0,
  });
  // Python is not compiled: the driver compiles it inside the sandbox and reports syntax errors with their line.
  const compiled =
    language === "python"
      ? ({ ok: true, js: request.code } as const)
      : await deps.compiled.compile(request.code, language);
  if (!compiled.ok) return finish({ logs: [], durationMs: 0, error: compiled.error });
  const { sandbox, upstream, privacy } = deps.config.settings;
  // A server still starting gets its chance to list its tools before the program is checked against them.
  await awaitStartingServers(deps, request.code, request.signal, request.inFlight);
  const notReady = deps.catalog
    .servers()
    .filter((entry) => deps.upstream.connection(entry.server).state !== "ready");
  // Before anything runs: a program that does not type-check makes no tool call. A program naming a
  // server that is not ready is not checked: its call says the server is restarting or failed, which
  // says more than "property does not exist".
  if (
    language === "typescript" &&
    (request.typecheck ?? sandbox.typecheck) &&
    !namesToolsOf(request.code, notReady)
  ) {
    const typeError = await deps.typeChecker.check({
      source: request.code,
      skillDeclaration: (name) =>
        draftOf(request, name)?.declaration ?? deps.skills.typeScriptDeclaration(name, session),
    });
    if (typeError) return finish({ logs: [], durationMs: 0, error: typeError });
  }

  const decisions = new WeakMap<object, PolicyAction>();
  const { bridge, stats } = createExecutionBridge({
    catalog: deps.catalog,
    upstream: deps.upstream,
    // Audit outermost, so refusals are recorded; policy before validation: a refused call is never sent.
    // Privacy inside policy (it passes a new call object on) and outside validation (real values get checked).
    middleware: [
      // Outermost: refused and over-limit calls get their span too.
      toolCallTracing(trace, decisions),
      accountingMiddleware(ledger),
      auditMiddleware({ log: deps.audit(), violations: deps.violations, session, client, decisions }),
      // Once, after PII tokenization: audit and accounting read its size, the sandbox gets its JSON.
      serializeResultMiddleware(),
      argumentLimitMiddleware(upstream.maxArgumentBytes),
      anomalyGuardMiddleware({
        responses: deps.anomalyResponses,
        session,
        client,
        approver: request.approver,
        policy: deps.policy,
      }),
      policyMiddleware({
        policy: deps.policy,
        approver: request.approver,
        onDecision: (call, action) => decisions.set(call, action),
      }),
      ...(privacy.pii
        ? [privacyMiddleware(deps.states.vault(session), { exclude: deps.privacyExclude })]
        : []),
      deps.validator.middleware(),
      ...(request.inFlight ? [inFlightMiddleware(request.inFlight)] : []),
      // Innermost: nothing outside it (privacy, audit, the sandbox) ever holds an upstream secret.
      secretRedactionMiddleware(deps.redactor),
    ],
    maxToolCalls: sandbox.maxToolCalls,
    callTimeoutMs: upstream.callTimeoutMs,
    onProgress:
      request.onProgress &&
      guardProgress(request.onProgress, {
        redact: (text) => deps.redactor.redact(text),
        tokenize: privacy.pii ? (text) => deps.states.vault(session).tokenizeAsync(text) : undefined,
      }),
    serverProblem: (server) => {
      const problem = connectionOf(deps, server)?.problem();
      return problem === undefined ? undefined : deps.redactor.redact(problem);
    },
    waitForServer: (server, signal) =>
      connectionOf(deps, server)?.settled(signal, { askClient: true }) ?? Promise.resolve(),
    features: {
      features: (server) => deps.features.features(server),
      routes: deps.features.routes(session),
      ...(privacy.pii && {
        detokenize: (text: string) => deps.states.vault(session).detokenize(text),
      }),
      denied: (tool) => deps.policy.decide(tool).action === "deny",
    },
    searchTools: async (query, limit, minScore) => {
      if (query.length > MAX_QUERY_CHARS)
        throw new RangeError(
          `searchTools: the query is ${query.length} characters long; at most ${MAX_QUERY_CHARS} are read`,
        );
      return deps.skills
        .search(query, { limit: clampLimit(limit), minScore, session })
        .map((match) => match.result);
    },
  });
  const workspace = deps.states.workspace(session);
  let python: PythonRuntime | undefined;
  if (language === "python") {
    try {
      python = await deps.pythonRuntime();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return finish({
        logs: [],
        durationMs: 0,
        error: { kind: "runtime", name: "SandboxUnavailable", message },
      });
    }
  }
  const runtime = python ?? (await deps.sandboxRuntime());
  const pythonSkills = python === undefined ? undefined : deps.pythonSkills(session);
  const result = await runtime.run({
    code: compiled.js,
    ...("sourceMap" in compiled && compiled.sourceMap !== undefined && { sourceMap: compiled.sourceMap }),
    // Read by the Python runtime only.
    ...(pythonSkills !== undefined && { skills: pythonSkills }),
    tools: withPendingTools(deps.catalog.namespace(), request.code, notReady),
    // The session's files and skills ride beside the tool calls; skills run in this same sandbox, under the same limits.
    bridge: {
      ...bridge,
      ...(workspace && { workspace }),
      loadSkill: (name) => {
        const draft = draftOf(request, name);
        return draft
          ? deps.skills.draftModule(draft.name, draft.code, draft.declaration)
          : deps.skills.load(name, session);
      },
    },
    timeoutMs: Math.min(request.timeoutMs ?? sandbox.timeoutMs, sandbox.timeoutMs),
    memoryMb: sandbox.memoryMb,
    maxLogBytes: sandbox.maxLogBytes,
    maxResultBytes: sandbox.maxResultBytes,
    maxOutputBytes: sandbox.maxOutputBytes,
    context: request.context,
    ...(request.signal && { signal: request.signal }),
  });
  const capped = capOutput(result, sandbox.maxOutputBytes);
  return { ...finish(capped.result, stats), returnedBytes: capped.bytes };
}

function draftOf(request: ExecuteRequest, name: string): DraftSkill | undefined {
  return request.draftSkills?.find((draft) => draft.name === name);
}

function connectionOf(deps: ProgramDeps, server: string) {
  const entry = deps.catalog.server(server);
  return entry ? deps.upstream.connection(entry.server) : undefined;
}

/**
 * A program naming a server that is still making its first connection, or
 * waiting for an OAuth login a person is completing, waits for it (at most its
 * connect or login timeout): the tools it calls are only known then.
 */
async function awaitStartingServers(
  deps: ProgramDeps,
  code: string,
  signal: AbortSignal | undefined,
  inFlight: ((server: string) => () => void) | undefined,
): Promise<void> {
  const waits = deps.catalog
    .servers()
    .filter((entry) => code.includes(entry.serverId) || code.includes(entry.server))
    .filter((entry) => deps.upstream.connection(entry.server).starting)
    .map(async (entry) => {
      // In flight meanwhile: what the wait asks (open the login page) goes to this program's client.
      const end = inFlight?.(entry.server);
      try {
        await deps.upstream.connection(entry.server).settled(signal, { askClient: true });
      } finally {
        end?.();
      }
    });
  await Promise.all(waits);
}

/** searchTools() from code: 10 results unless asked, never more than 50. */
function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return 10;
  return Math.max(1, Math.min(50, Math.floor(limit)));
}
