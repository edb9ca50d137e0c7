import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { ExecutionTokens } from "../output/accounting.ts";
import type { SandboxPoolStats } from "../sandbox/types.ts";
import type { AuditEntry } from "../store/types.ts";
import type { UpstreamStatus } from "../upstream/types.ts";
import type { ActivityEvent } from "./activity.ts";
import { ANOMALY_KINDS } from "./anomaly/types.ts";

let processMetrics: Registry | undefined;

/**
 * Process metrics (CPU, memory, event loop lag, GC), one set per process and
 * made on the first scrape: a gateway that is never scraped starts no monitor,
 * and many gateways in one process (tests, the eval) share one.
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics, prefix: "toolscript_" });
  }
  return processMetrics;
}

/** An execution's audit outcome when the gateway refused it as busy (see recordExecution). */
const BUSY_OUTCOME = "runtime:BusyError";

/** Seconds: from a warm empty execution (ms) to the sandbox's longest timeout. */
const EXECUTION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const TOOL_CALL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60];

/** What the gauges read at every scrape. */
export interface MetricSources {
  /** Each upstream's state. */
  statuses(): UpstreamStatus[];
  /** Executions running now and waiting for a slot. */
  load(): { running: number; queued: number };
  /** Each started sandbox tier's pool. */
  sandboxPools(): Array<{ tier: string } & SandboxPoolStats>;
}

/**
 * The gateway's Prometheus metrics (`toolscript_*`), one registry per gateway.
 * Counters and histograms follow the audit log: every execution, tool call and
 * model request it records is observed here (`observe`), so what is counted
 * and what is audited never disagree. Gauges are read from the gateway at scrape time.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #executions: Counter<"outcome" | "kind" | "language">;
  readonly #executionSeconds: Histogram<"outcome">;
  readonly #toolCalls: Counter<"server" | "tool" | "outcome">;
  readonly #toolCallSeconds: Histogram<"server">;
  readonly #policyDenials: Counter;
  readonly #anomalies: Counter<"kind">;
  readonly #modelTokens: Counter<"direction">;
  readonly #tokens: Counter<"direction">;
  readonly #tokensKeptOut: Counter;
  readonly #tokensSaved: Counter;
  readonly #piiTokens: Counter<"kind">;
  readonly #busy: Counter;
  readonly #lastRestarts = new Map<string, number>();

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.#executions = new Counter({
      name: "toolscript_executions_total",
      help: "Programs run, by outcome (ok or error), error kind (none when ok) and language.",
      labelNames: ["outcome", "kind", "language"],
      registers,
    });
    this.#executionSeconds = new Histogram({
      name: "toolscript_execution_duration_seconds",
      help: "Wall time of a program's run.",
      labelNames: ["outcome"],
      buckets: EXECUTION_BUCKETS,
      registers,
    });
    this.#toolCalls = new Counter({
      name: "toolscript_tool_calls_total",
      help: "Tool calls from programs, by server, tool and outcome (ok, or the error's class or code).",
      labelNames: ["server", "tool", "outcome"],
      registers,
    });
    this.#toolCallSeconds = new Histogram({
      name: "toolscript_tool_call_duration_seconds",
      help: "Time of a tool call from a program, through the middleware to the upstream and back.",
      labelNames: ["server"],
      buckets: TOOL_CALL_BUCKETS,
      registers,
    });
    this.#policyDenials = new Counter({
      name: "toolscript_policy_denials_total",
      help: "Tool calls the policy refused, approvals declined included.",
      registers,
    });
    this.#anomalies = new Counter({
      name: "toolscript_anomalies_total",
      help: "Anomaly alerts raised (audit records of kind anomaly), by kind: burst, denials, errors, exfiltration.",
      labelNames: ["kind"],
      registers,
    });
    // Every kind shows from the first scrape, at 0: a rise is then a plain difference.
    for (const kind of ANOMALY_KINDS) this.#anomalies.inc({ kind }, 0);
    this.#modelTokens = new Counter({
      name: "toolscript_model_tokens_total",
      help: "Tokens of the gateway's own model requests (solve_task), by direction (in, out).",
      labelNames: ["direction"],
      registers,
    });
    this.#tokens = new Counter({
      name: "toolscript_tokens_total",
      help: "Tokens of execute_code through the model's context: in (the programs sent), out (the answers returned).",
      labelNames: ["direction"],
      registers,
    });
    this.#tokensKeptOut = new Counter({
      name: "toolscript_tokens_kept_out_total",
      help: "Tokens of tool results that stayed in the sandbox and never reached the model's context.",
      registers,
    });
    this.#tokensSaved = new Counter({
      name: "toolscript_tokens_saved_total",
      help: "Tokens direct tool calling would have put in the context (definitions, arguments, results) beyond what code mode did.",
      registers,
    });
    this.#piiTokens = new Counter({
      name: "toolscript_pii_tokens_total",
      help: "Pieces of personal data replaced by tokens in answers, by kind (EMAIL, PHONE, ...).",
      labelNames: ["kind"],
      registers,
    });
    this.#busy = new Counter({
      name: "toolscript_busy_total",
      help: "Executions refused because every slot and the queue were taken (sandbox.maxConcurrent, sandbox.maxQueued).",
      registers,
    });
    new Gauge({
      name: "toolscript_queue_depth",
      help: "Executions waiting for a free slot.",
      registers,
      collect() {
        this.set(sources.load().queued);
      },
    });
    new Gauge({
      name: "toolscript_executions_running",
      help: "Executions running now.",
      registers,
      collect() {
        this.set(sources.load().running);
      },
    });
    new Gauge({
      name: "toolscript_sandbox_pool",
      help: "Sandboxes of each started tier: prepared and waiting (warm), or serving a program (running).",
      labelNames: ["tier", "state"],
      registers,
      collect() {
        this.reset();
        for (const pool of sources.sandboxPools()) {
          this.set({ tier: pool.tier, state: "warm" }, pool.warm);
          this.set({ tier: pool.tier, state: "running" }, pool.running);
        }
      },
    });
    new Gauge({
      name: "toolscript_upstream_up",
      help: "1 when the upstream server is ready, else 0.",
      labelNames: ["server"],
      registers,
      collect() {
        this.reset();
        for (const status of sources.statuses())
          this.set({ server: status.server }, status.state === "ready" ? 1 : 0);
      },
    });
    const lastRestarts = this.#lastRestarts;
    new Counter({
      name: "toolscript_upstream_restarts_total",
      help: "Restarts of each upstream server since the gateway started.",
      labelNames: ["server"],
      registers,
      collect() {
        for (const status of sources.statuses()) {
          const delta = status.restarts - (lastRestarts.get(status.server) ?? 0);
          if (delta > 0) this.inc({ server: status.server }, delta);
          else this.inc({ server: status.server }, 0);
          lastRestarts.set(status.server, status.restarts);
        }
      },
    });
  }

  /** What the gateway did: final audit records counted by kind, answered executions' tokens. */
  observe(event: ActivityEvent): void {
    if (event.type === "audit") this.#observeAudit(event.entry);
    else {
      this.#observeTokens(event.tokens);
      for (const [kind, count] of Object.entries(event.piiTokens)) this.#piiTokens.inc({ kind }, count);
    }
  }

  #observeTokens(tokens: ExecutionTokens): void {
    this.#tokens.inc({ direction: "in" }, tokens.code);
    this.#tokens.inc({ direction: "out" }, tokens.returned);
    this.#tokensKeptOut.inc(tokens.keptInSandbox);
    this.#tokensSaved.inc(Math.max(0, tokens.directEstimate - tokens.code - tokens.returned));
  }

  #observeAudit(entry: AuditEntry): void {
    const seconds = entry.durationMs / 1000;
    if (entry.kind === "execution") {
      const ok = entry.outcome === "ok";
      const kind = ok ? "none" : (entry.outcome.split(":")[0] ?? "runtime");
      const language = typeof entry.detail?.language === "string" ? entry.detail.language : "typescript";
      this.#executions.inc({ outcome: ok ? "ok" : "error", kind, language });
      this.#executionSeconds.observe({ outcome: ok ? "ok" : "error" }, seconds);
      if (entry.outcome === BUSY_OUTCOME) this.#busy.inc();
      return;
    }
    if (entry.kind === "anomaly") {
      this.#anomalies.inc({ kind: entry.tool });
      return;
    }
    if (entry.kind === "model_call") {
      const input = entry.detail?.inputTokens;
      const output = entry.detail?.outputTokens;
      if (typeof input === "number") this.#modelTokens.inc({ direction: "in" }, input);
      if (typeof output === "number") this.#modelTokens.inc({ direction: "out" }, output);
      return;
    }
    this.#toolCalls.inc({ server: entry.server, tool: entry.tool, outcome: entry.outcome });
    this.#toolCallSeconds.observe({ server: entry.server }, seconds);
    if (entry.outcome.startsWith("policy.")) this.#policyDenials.inc();
  }

  /** The Prometheus text exposition of every metric, the process's included. */
  text(): Promise<string> {
    return Registry.merge([processRegistry(), this.registry]).metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
