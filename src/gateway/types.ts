import type { CallProgressListener } from "../bridge/progress.ts";
import type { Config } from "../config/schema.ts";
import type { ModelClient } from "../llm/types.ts";
import type { TraceCarrier } from "../ops/tracing/trace-context.ts";
import type { ExecutionTokens } from "../output/accounting.ts";
import type { BudgetedAnswer } from "../output/budget.ts";
import type { BudgetStrategy } from "../output/reduce-result.ts";
import type { Approver } from "../policy/approval.ts";
import type { ExecutionResult, SandboxRuntime } from "../sandbox/types.ts";
import type { SharedStore } from "../store/domains.ts";
import type { ClientRequestHooks } from "../upstream/types.ts";
import type { Logger } from "./logger.ts";

export type CodeLanguage = "typescript" | "javascript" | "python";

export interface ExecuteRequest {
  code: string;
  language?: CodeLanguage | undefined;
  /** Wall-clock limit for this execution, capped by `sandbox.timeoutMs`. */
  timeoutMs?: number | undefined;
  /** JSON value the code sees as the global `context`. */
  context?: unknown;
  /** Whose workspace, vault and private skills the code sees; "default" when absent. */
  session?: string | undefined;
  /**
   * The client running it (an HTTP client's name): sessions belong to the client
   * that created them, and another one is told they are unknown. Absent: the local client.
   */
  client?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Asks the user about calls the policy marks for approval; without it they are refused. */
  approver?: Approver | undefined;
  /**
   * Called as each tool call of the program goes to its server, with that server's
   * name; the returned function when it ends. The front end marks the call in
   * flight, so what that server asks meanwhile (sampling, elicitation, roots) goes
   * to the client that ran the program.
   */
  inFlight?: ((server: string) => () => void) | undefined;
  /** Token budget of the answer, capped by `output.maxTokensLimit`. */
  maxTokens?: number | undefined;
  /** How to reduce an answer over budget. */
  strategy?: BudgetStrategy | undefined;
  /** Type-check a TypeScript program before it runs; `sandbox.typecheck` when absent. */
  typecheck?: boolean | undefined;
  /** Told of the servers' progress of the program's calls and of each finished call (execute_code progress). */
  onProgress?: CallProgressListener | undefined;
  /**
   * Unsaved TypeScript skills this run imports as `skills/<name>` in place of
   * saved ones (`gateway.skills.check` gives the declaration): code tried before it is kept.
   */
  draftSkills?: readonly DraftSkill[] | undefined;
  /**
   * Set by a front end for a client's request: the execution's span is then that request's
   * server span, the child of the client's span when it sent a W3C trace context.
   */
  trace?: ClientTrace | undefined;
}

/** The client's trace context (its request's `_meta` or HTTP headers) and MCP session, for tracing. */
export interface ClientTrace extends TraceCarrier {
  mcpSessionId?: string | undefined;
  /** The JSON-RPC id of the client's request (`jsonrpc.request.id`). */
  requestId?: string | number | undefined;
}

export interface DraftSkill {
  name: string;
  code: string;
  declaration: string;
}

export interface ExecuteResponse extends ExecutionResult {
  session: string;
  toolCalls: number;
  failedToolCalls: number;
  /** Bytes of tool results that entered the sandbox and stayed there unless returned. */
  toolResultBytes: number;
  /** Bytes (JSON) of the value the program returned. */
  returnedBytes?: number;
  /** What the model receives: personal data tokenized, fitted to the token budget. */
  answer?: BudgetedAnswer;
  /** Tokens returned, kept in the sandbox, and what direct tool calling would have cost. */
  tokens?: ExecutionTokens;
}

export interface GatewayOptions {
  /** A loaded config, or a plain `{ mcpServers, toolscript }` object as in toolscript.config.json. */
  config: Config | Record<string, unknown>;
  /** The model solve_task has write tools (default: the one `toolscript.llm` configures). */
  model?: ModelClient | undefined;
  logger?: Logger;
  /** A sandbox tier to use instead of the configured one (tests, embedding). */
  runtime?: SandboxRuntime;
  /** A store to use instead of the SQLite database in `storage.dir` (tests, embedding). */
  store?: SharedStore;
  /** Answers to sampling, elicitation and roots requests from upstream servers (see ClientRequestHooks). */
  clientRequests?: ClientRequestHooks;
  /**
   * OAuth logins: may the gateway ask a person (open `$BROWSER` and wait for the
   * redirect) when an HTTP server needs one? Default false: such a server waits
   * in `needs_login` until `toolscript auth login` stores a token. The CLI says yes.
   */
  interactiveLogin?: boolean;
  /** Shows an authorization URL to the person (default: `$BROWSER`, xdg-open or open, and stderr). */
  openUrl?: (url: string) => Promise<unknown>;
}

export const DEFAULT_SESSION = "default";
