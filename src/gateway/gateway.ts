import { AuditLog } from "../audit/audit-log.ts";
import { auditedModel } from "../audit/model-call-record.ts";
import { ViolationCounter, type ViolationKind } from "../audit/violations.ts";
import { Authorizations } from "../auth/authorizations.ts";
import { CredentialVault } from "../auth/credential-vault.ts";
import { oauthSettingsOf } from "../auth/oauth-settings.ts";
import { ArgumentValidator } from "../bridge/validate.ts";
import { Catalog } from "../catalog/catalog.ts";
import { renderTree } from "../catalog/declaration/tree.ts";
import type { CatalogTool } from "../catalog/types.ts";
import { CompileCache } from "../compile/compile-cache.ts";
import { ProgramTypeChecker } from "../compile/type-check.ts";
import { parseConfig } from "../config/parse.ts";
import type { Config } from "../config/schema.ts";
import { ExecutionGate } from "../limits/execution-gate.ts";
import type { ModelClient } from "../llm/types.ts";
import { ActivityFeed } from "../ops/activity.ts";
import { AnomalyDetector } from "../ops/anomaly/anomaly-detector.ts";
import { writeLikeByName } from "../ops/anomaly/write-like.ts";
import { GatewayMetrics } from "../ops/metrics.ts";
import { traceExecution } from "../ops/tracing/execution-span.ts";
import { createTokenizer, type Tokenizer } from "../output/tokenizer.ts";
import { Policy } from "../policy/policy.ts";
import { toolGlobMatcher } from "../privacy/tool-glob.ts";
import { loadVaultKey, VAULT_KEY_ENV } from "../privacy/vault-crypto.ts";
import type { SandboxPoolStats } from "../sandbox/types.ts";
import {
  LazySearchIndex,
  LexicalSearchIndex,
  type SearchIndex,
  syncIndexWithCatalog,
  type ToolMatch,
} from "../search/index.ts";
import { SecretRedactor } from "../secrets/redactor.ts";
import { SkillLibrary } from "../skills/skill-library.ts";
import type { SolveResponse } from "../solve/solve-task.ts";
import type { RateLimitStore, SharedStore } from "../store/domains.ts";
import { openMemorySharedStore } from "../store/sqlite-shared-store.ts";
import { UpstreamManager } from "../upstream/manager.ts";
import type { ClientRequestHooks, LogLevel, UpstreamStatus } from "../upstream/types.ts";
import { configuredModel } from "./configured-model.ts";
import { GatewayError } from "./errors.ts";
import { type ExecutionDeps, executeProgram } from "./execute-program.ts";
import { type Logger, silentLogger } from "./logger.ts";
import { openGatewayStore } from "./open-store.ts";
import { PassThroughHub } from "./pass-through/hub.ts";
import type { PassThroughSources } from "./pass-through/sources.ts";
import type { ProgramDeps } from "./run-program.ts";
import { SandboxRuntimes } from "./sandbox-runtimes.ts";
import { SessionStates } from "./session-state.ts";
import { type GatewaySolveRequest, solveWithGateway } from "./solve.ts";
import { UpstreamStatusLog } from "./status-log.ts";
import { DEFAULT_SESSION, type ExecuteRequest, type ExecuteResponse, type GatewayOptions } from "./types.ts";
import { UpstreamEventFanOut } from "./upstream-events.ts";
import { UpstreamFeatureGlue } from "./upstream-features.ts";

/**
 * The engine behind every front end: upstream connections, the catalog,
 * the store, and sandboxed execution with tools bridged in. Holds no
 * transport of its own.
 */
export class Gateway {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly upstream: UpstreamManager;
  /**
   * Tools and skills ranked for `search_tools` and `searchTools()`; follows the catalog.
   * Built on the first search: its word tables cost ~65 MB that a gateway never searched does not need.
   */
  readonly searchIndex: SearchIndex = new LazySearchIndex(() => new LexicalSearchIndex());
  /** Saved skills: `save_skill`, `import ... from "skills/<name>"`, ranked in `searchIndex`. */
  readonly skills: SkillLibrary;
  /** Prometheus metrics (`toolscript_*`), served at /metrics; fed by `activity`. */
  readonly metrics: GatewayMetrics;
  /** Every final audit record and answered execution's tokens, as they happen (`on(listener)` returns the removal). */
  readonly activity: ActivityFeed;
  /**
   * What the upstream servers report (tools, status, log messages, list changes, resource
   * updates), for any part that forwards it; `on(listener)` returns the removal.
   */
  readonly upstreamEvents: UpstreamEventFanOut;
  /** The hooks that answer upstreams' sampling, elicitation and roots requests (declared to them). */
  readonly clientRequests: ClientRequestHooks | undefined;
  /** OAuth of the HTTP upstreams (logins, tokens, status). */
  readonly authorizations: Authorizations;
  #credentials: CredentialVault | undefined;
  /** The data directory, when the store is the database in it (the credential key file lives there). */
  #storeDir: string | undefined;
  readonly #logger: Logger;
  /** What was last logged per server: its state with its tool count or error. */
  readonly #statusLog: UpstreamStatusLog;
  readonly #runtimes: SandboxRuntimes;
  readonly #validator = new ArgumentValidator();
  readonly #policy: Policy;
  readonly #gate: ExecutionGate;
  readonly #redactor: SecretRedactor;
  readonly #compiled = new CompileCache();
  readonly #typeChecker: ProgramTypeChecker;
  /** Writes tools for solve_task when none fits (GatewayOptions.model). */
  readonly #model: ModelClient | undefined;
  /** Set by `start` unless told not to start a sandbox (read-only commands): programs may run. */
  #runsPrograms = false;
  readonly #privacyExclude: (tool: CatalogTool) => boolean;
  readonly #violations: ViolationCounter;
  /** Anomaly detection: follows `activity`, alerts, and holds the responses imposed on sessions. */
  readonly #anomalies: AnomalyDetector;
  readonly #tokenizer: Tokenizer;
  readonly #states: SessionStates;
  readonly #features: UpstreamFeatureGlue;

  #store: SharedStore | undefined;
  #audit: AuditLog;
  #deps: ProgramDeps | undefined;
  #execution: ExecutionDeps | undefined;
  readonly #passThrough: PassThroughHub;
  #closed = false;

  constructor(options: GatewayOptions) {
    const config = isLoadedConfig(options.config)
      ? options.config
      : parseConfig(options.config, { baseDir: process.cwd(), env: process.env });
    this.config = config;
    this.#logger = options.logger ?? silentLogger;
    this.#statusLog = new UpstreamStatusLog(this.#logger);
    this.#runtimes = new SandboxRuntimes(config.settings, options.runtime);
    const llm = config.settings.llm;
    this.#model = options.model ?? (llm && configuredModel(llm, process.env));
    this.#typeChecker = new ProgramTypeChecker(
      {
        version: () => this.catalog.version,
        tree: () => renderTree(this.catalog.tools(), { untypedOutput: "any" }),
      },
      { idleMs: config.settings.sandbox.typecheckIdleSeconds * 1000 },
    );
    // Relative paths in `args` (e.g. "./data") resolve from the config file, wherever the gateway runs.
    const servers = config.servers.map((server) =>
      server.kind === "stdio" ? { ...server, cwd: server.cwd ?? config.baseDir } : server,
    );
    this.catalog = new Catalog(servers.map((server) => server.name));
    const { upstream, sandbox, audit } = config.settings;
    this.#redactor = SecretRedactor.fromConfig(config);
    this.clientRequests = options.clientRequests;
    this.authorizations = new Authorizations({
      credentials: () => this.#credentialVault(),
      settings: oauthSettingsOf(config),
      interactive: options.interactiveLogin ?? false,
      loginTimeoutMs: upstream.loginTimeoutMs,
      openUrl: options.openUrl,
      onSecret: (...secrets) => this.#redactor.add(...secrets),
    });
    const upstreamOptions = {
      ...upstream,
      clientRequests: options.clientRequests,
      authorize: this.authorizations.authorize,
      sharedRates: () => this.sharedRates(),
    };
    this.upstreamEvents = new UpstreamEventFanOut((error) =>
      this.#logger.error(`an upstream event listener failed: ${String(error)}`),
    );
    // The catalog hears first: listeners added later (pass-through, the front end) see it up to date.
    this.upstreamEvents.on({
      onToolsChanged: (server, tools) => this.catalog.setServerTools(server, tools),
      onStatusChanged: (status) => {
        if (!this.#closed) this.#statusLog.log(this.#redactor.redactValue(status));
      },
      onListChanged: (server, kind) => {
        if (kind === "resources") this.#features.resourcesChanged(server);
      },
    });
    this.upstream = new UpstreamManager(servers, upstreamOptions, this.upstreamEvents.events);
    this.#passThrough = new PassThroughHub(
      config,
      this.upstream,
      upstreamOptions,
      this.upstreamEvents,
      (error) => this.#logger.error(`an upstream event listener failed: ${String(error)}`),
    );
    this.#features = new UpstreamFeatureGlue(this.upstream);
    syncIndexWithCatalog(
      this.searchIndex,
      this.catalog,
      (server) => this.upstream.connection(server).status().instructions,
    );
    this.skills = new SkillLibrary({
      catalog: this.catalog,
      index: this.searchIndex,
      validatePythonSkill: (skill) => this.#runtimes.checkPythonSkill(skill),
      warn: (message) => this.#logger.warn(message),
    });
    this.#policy = new Policy(config.settings.policy);
    this.#privacyExclude = toolGlobMatcher(config.settings.privacy.exclude);
    this.#gate = new ExecutionGate(sandbox.maxConcurrent, sandbox.maxQueued);
    this.#violations = new ViolationCounter(audit.alertAfter, (session, counts) =>
      this.#logger.warn(
        `session "${session}" reached ${audit.alertAfter} security violations: ${JSON.stringify(counts)}`,
      ),
    );
    this.#tokenizer = createTokenizer(config.settings.output.tokenizer);
    this.#states = new SessionStates(config.settings.privacy, loadVaultKey(process.env));
    this.#store = options.store;
    this.activity = new ActivityFeed((error) =>
      this.#logger.error(`an activity listener failed: ${String(error)}`),
    );
    this.metrics = new GatewayMetrics({
      statuses: () => this.statuses(),
      load: () => ({ running: this.#gate.running, queued: this.#gate.queued }),
      sandboxPools: () => this.sandboxPools(),
    });
    this.activity.on((event) => this.metrics.observe(event));
    this.#anomalies = new AnomalyDetector({
      settings: config.settings.anomalies,
      logger: this.#logger,
      record: (entry) => this.#audit.record(entry, true),
      writeLike: writeLikeByName(this.catalog),
    });
    this.activity.on((event) => this.#anomalies.observe(event));
    this.#audit = this.#auditLog();
  }

  /**
   * Opens the store (the SQLite database in `storage.dir`) and connects every
   * upstream in parallel; resolves when each is ready or has failed once, or
   * at once with `waitForServers: false` (a server: its client should not
   * wait on the slowest upstream; late servers join the catalog when ready).
   */
  async start(options: { waitForServers?: boolean; sandbox?: boolean } = {}): Promise<UpstreamStatus[]> {
    // Commands that run no program (`tools`, `skills`) start no sandbox and no type checker.
    if (options.sandbox !== false) {
      // The sandbox first: a configured tier that cannot start stops everything before any server is spawned.
      await this.#runtimes.sandbox();
      this.#runsPrograms = true;
      // TypeScript loads in the checker's worker while the servers connect, not in the first execution.
      this.#prepareTypeChecker();
    }
    if (!this.#store) {
      const opened = await openGatewayStore(this.config.settings.storage, this.#logger);
      this.#store = opened.store;
      this.#storeDir = opened.dir;
      // The log before the store had none: nothing of it to write.
      this.#audit = this.#auditLog();
    }
    // Skills are read from memory on hot paths: loaded here, then kept current by the store's changes.
    if (this.#store) await this.skills.attach(this.#store);
    if (this.#store) this.#states.attach(this.#store, this.#logger);
    if (this.config.settings.privacy.pii && !this.#states.persistent) {
      this.#logger.warn(
        this.#store?.engine === "postgres"
          ? `${VAULT_KEY_ENV} is not set: PII vaults are not stored, so a PII token works only on the replica that issued it (tokens will not cross replicas) and only until it restarts; set the same key on every replica`
          : `${VAULT_KEY_ENV} is not set: PII tokens stay stable only until the gateway restarts`,
      );
    }
    const started = this.upstream.start();
    this.#passThrough.started();
    if (options.waitForServers === false) return this.statuses();
    return started;
  }

  /**
   * OAuth credentials, sealed in the store (opened in start(): connections only
   * ask after it; before, in memory). On PostgreSQL the key is TOOLSCRIPT_VAULT_KEY.
   */
  #credentialVault(): CredentialVault {
    this.#credentials ??= CredentialVault.open({
      store: this.#store ?? openMemorySharedStore(),
      dataDir: this.#storeDir,
      logger: this.#logger,
    });
    return this.#credentials;
  }

  /** The Python skills `session` sees, by module name (`skills.<module>` -> source); undefined when there are none. */
  #pythonSkills(session: string): Record<string, string> | undefined {
    const sources = this.skills.pythonSources(session);
    return Object.keys(sources).length === 0 ? undefined : sources;
  }

  /** `value` with configured secrets redacted: for what leaves the gateway other than answers (e.g. upstream logs). */
  redact<T>(value: T): T {
    return this.#redactor.redactValue(value);
  }

  /** Each upstream's state; error texts and stderr tails are redacted of configured secrets. */
  statuses(): UpstreamStatus[] {
    return this.upstream.statuses().map((status) => this.#redactor.redactValue(status));
  }

  /** Each started sandbox tier's pool: sandboxes warm and running. */
  sandboxPools(): Array<{ tier: string } & SandboxPoolStats> {
    return this.#runtimes.pools();
  }

  /** Security violations counted for a session (policy refusals, limit hits, escape attempts). */
  violations(session: string): Record<ViolationKind, number> {
    return this.#violations.get(session);
  }

  /**
   * Whether `client` (an HTTP client's name; null: the local client) may use
   * `session`: undefined when it may, else the error to answer. With `claim`
   * the session is created for the client when new (before saving into it).
   */
  async sessionRefusal(
    session: string,
    client: string | null,
    options: { claim?: boolean } = {},
  ): Promise<string | undefined> {
    const refused = options.claim
      ? await this.#states.touch(session, client)
      : await this.#states.refusal(session, client);
    return refused && `${refused.name}: ${refused.message}`;
  }

  /** Tools and the skills `session` sees that match a query, best first, with their call paths. */
  search(
    query: string,
    options: { limit?: number | undefined; minScore?: number | undefined; session?: string | undefined } = {},
  ): ToolMatch[] {
    // A search comes before a program: a checker stopped while the gateway was idle starts loading now.
    this.#prepareTypeChecker();
    return this.skills.search(query, options);
  }

  #prepareTypeChecker(): void {
    if (this.#runsPrograms && this.config.settings.sandbox.typecheck) this.#typeChecker.prepare();
  }

  /**
   * solve_task: runs the saved skill or tool that fits a task described in words,
   * else has a model write one, checks, runs and keeps it. Throws `SolveError`.
   */
  solveTask(request: GatewaySolveRequest): Promise<SolveResponse> {
    if (this.#closed) throw new GatewayError("gateway.closed", "the gateway is closed");
    const session = request.session ?? DEFAULT_SESSION;
    const chosen = request.model ?? this.#model;
    // Every request to the model is audited; answers from the cache (no request) are not.
    const model =
      chosen && auditedModel(chosen, this.#audit, { session, client: request.client, purpose: "solve_task" });
    const approve = this.config.settings.llm?.approveGenerated ?? false;
    return solveWithGateway(this, approve, { ...request, session, model });
  }

  /** Writes pending audit records now (they are batched, at most ~50 ms behind); resolves once committed. */
  flushAudit(): Promise<void> {
    return this.#audit.flush();
  }

  /** The model solve_task has write tools, when one is configured. */
  get model(): ModelClient | undefined {
    return this.#model;
  }

  /** The store, once started. */
  get store(): SharedStore | undefined {
    return this.#store;
  }

  /**
   * The store's rate windows when replicas share it (PostgreSQL), for limits that
   * hold across them (SharedRateLimit); undefined: each process counts its own.
   */
  sharedRates(): RateLimitStore | undefined {
    return this.#store?.engine === "postgres" ? this.#store.rateLimits : undefined;
  }

  /**
   * Runs one program. Never throws for the program's own failures, nor when
   * the gateway is busy: those come back as `error`.
   */
  async execute(input: string | ExecuteRequest): Promise<ExecuteResponse> {
    const request = typeof input === "string" ? { code: input } : input;
    if (this.#closed) throw new GatewayError("gateway.closed", "the gateway is closed");
    const session = request.session ?? DEFAULT_SESSION;
    const client = request.client ?? null;
    const tier = this.#runtimes.tierOf(request.language);
    return traceExecution(request, { session, client, tier }, (trace) =>
      executeProgram(this.#executionDeps(), request, session, client, trace),
    );
  }

  #executionDeps(): ExecutionDeps {
    this.#execution ??= {
      pii: this.config.settings.privacy.pii,
      states: this.#states,
      anomalyResponses: this.#anomalies.responses,
      gate: this.#gate,
      runtimes: this.#runtimes,
      audit: () => this.#audit,
      violations: this.#violations,
      redactor: this.#redactor,
      logger: this.#logger,
      program: () => this.#programDeps(),
      answer: () => ({
        settings: this.config.settings,
        states: this.#states,
        tokenizer: this.#tokenizer,
        activity: this.activity,
        logger: this.#logger,
        storeLocation: () => this.#store?.location,
      }),
    };
    return this.#execution;
  }

  /**
   * One source per `toolscript.passThrough` server and client era, in config order, built
   * once and shared by every front-end session: its calls go through the same policy,
   * audit, limits and secret redaction as a program's (see LegacyTwins for the eras).
   */
  passThroughSources(): PassThroughSources {
    return this.#passThrough.sources(this.#programDeps(), this.upstreamEvents);
  }

  /**
   * Asks every upstream (the 2025-era twins of passed-through servers too) to send log
   * messages at `level` or above only, and forwards only those.
   */
  async setLoggingLevel(level: LogLevel): Promise<void> {
    await Promise.all([this.upstream.setLoggingLevel(level), this.#passThrough.setLoggingLevel(level)]);
  }

  /** The parts of this gateway a run uses (run-program.ts). */
  #programDeps(): ProgramDeps {
    this.#deps ??= {
      config: this.config,
      catalog: this.catalog,
      upstream: this.upstream,
      skills: this.skills,
      compiled: this.#compiled,
      typeChecker: this.#typeChecker,
      validator: this.#validator,
      policy: this.#policy,
      redactor: this.#redactor,
      privacyExclude: this.#privacyExclude,
      violations: this.#violations,
      anomalyResponses: this.#anomalies.responses,
      states: this.#states,
      features: this.#features,
      audit: () => this.#audit,
      sandboxRuntime: () => this.#runtimes.sandbox(),
      pythonRuntime: () => this.#runtimes.python(),
      pythonSkills: (session) => this.#pythonSkills(session),
    };
    return this.#deps;
  }

  async close(): Promise<void> {
    this.authorizations.close();
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([
      this.upstream.close(),
      this.#passThrough.close(),
      this.#runtimes.close(),
      this.#typeChecker.close(),
    ]);
    await this.#audit.close();
    this.#states.close();
    this.skills.detach();
    await this.#store?.close();
  }

  #auditLog(): AuditLog {
    return new AuditLog({
      store: this.#store?.audit,
      level: this.config.settings.audit.stderr,
      logger: this.#logger,
      observe: (entry) => this.activity.emit({ type: "audit", entry }),
    });
  }
}

/** Creates a gateway and connects its upstream servers (each ready or failed once). */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const gateway = new Gateway(options);
  await gateway.start();
  return gateway;
}

function isLoadedConfig(config: GatewayOptions["config"]): config is Config {
  return "settings" in config && "servers" in config && "baseDir" in config;
}
