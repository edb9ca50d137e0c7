import type {
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
  Tool,
} from "@modelcontextprotocol/server";
import type { Approver } from "../../policy/approval.ts";

/** One `notifications/progress` of an upstream call, without its token (the front end adds the client's). */
export interface PassThroughProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Who a forwarded request comes from, for the gateway's audit and policy. */
export interface PassThroughCaller {
  /** The HTTP client's name; null: the local client (stdio). */
  client: string | null;
  /** The session its audit records name. */
  session: string;
  /** Asks the user about a call the policy marks for approval; absent: such calls are refused. */
  approver?: Approver | undefined;
  /** What the client declared it can answer (sampling, elicitation, roots), for the upstream's questions. */
  capabilities?: ClientCapabilities | undefined;
}

/** What every forwarded request carries from the front-end request that caused it. */
export interface PassThroughRequestOptions {
  /** Aborted when the client cancels, or the front-end connection closes. */
  signal: AbortSignal;
  /** Absent when the front end says nothing of its client (tests, embedding). */
  caller?: PassThroughCaller | undefined;
}

export interface PassThroughCallOptions extends PassThroughRequestOptions {
  /** Present when the client asked for progress (sent a progressToken); forward the upstream's progress to it. */
  onProgress?: (progress: PassThroughProgress) => void;
}

/**
 * Something changed upstream that the front end must tell its clients:
 * - `tools` / `prompts` / `resources`: that list changed — a `list_changed` from the
 *   upstream, or the server went down (its lists are then empty) or came back;
 * - `resource-updated`: the upstream sent `notifications/resources/updated` for `uri`.
 */
export type PassThroughChange =
  | { kind: "tools" }
  | { kind: "prompts" }
  | { kind: "resources" }
  | { kind: "resource-updated"; uri: string };

/**
 * One upstream server as the pass-through front end sees it. The gateway adapts each
 * configured `toolscript.passThrough` server to this (only those: a server the config
 * does not pass through must never be given to `registerPassThrough`).
 *
 * Names here are the UPSTREAM's own; the front end adds and strips `prefix`.
 * Items and results are the upstream's raw wire objects, passed on unchanged:
 * `inputSchema`/`outputSchema` (JSON Schema 2020-12 `$defs`, `$ref`, `$schema` ...),
 * `annotations`, `title`, `icons`, `_meta`, every content block, `structuredContent`, `isError`.
 *
 * Errors: throw what the upstream answered. An error with a numeric JSON-RPC `code`
 * (the SDK's `ProtocolError`/`McpError`) keeps its code and message on the front end;
 * any other error (policy refusal, limit, server down) becomes an `isError` tool result
 * for `tools/call` and an internal error (-32603) elsewhere, with its message.
 */
export interface PassThroughSource {
  /** The server's name in `mcpServers`. */
  readonly server: string;
  /** Prepended to tool and prompt names on the front end; `""` keeps them. */
  readonly prefix: string;
  /**
   * The capabilities the upstream declared, or `undefined` while it is not connected.
   * A family the upstream does not declare is not asked for (its list is empty).
   */
  capabilities(): ServerCapabilities | undefined;
  /** The upstream's tools, all pages; empty while the server is down. */
  tools(): readonly Tool[] | Promise<readonly Tool[]>;
  /**
   * Calls one tool. THE place for the gateway's protections: policy (allow/deny/approve,
   * read-only), audit, rate and size limits, PII handling — pass-through calls bypass the
   * sandbox, so the adapter must apply them here exactly as for calls made by programs.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: PassThroughCallOptions,
  ): Promise<CallToolResult>;
  /** All pages. */
  listPrompts(options: PassThroughRequestOptions): Promise<readonly Prompt[]>;
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: PassThroughRequestOptions,
  ): Promise<GetPromptResult>;
  /** All pages. */
  listResources(options: PassThroughRequestOptions): Promise<readonly Resource[]>;
  /** All pages. */
  listResourceTemplates(options: PassThroughRequestOptions): Promise<readonly ResourceTemplateType[]>;
  readResource(uri: string, options: PassThroughRequestOptions): Promise<ReadResourceResult>;
  /** `params.ref` names the upstream's prompt (unprefixed) or resource template. */
  complete(params: CompleteRequestParams, options: PassThroughRequestOptions): Promise<CompleteResult>;
  /**
   * Called once per URI however many front-end sessions subscribe (the front end
   * counts them across every registration sharing this source object).
   */
  subscribeResource(uri: string): Promise<void>;
  /** Called when the last front-end session subscribed to `uri` unsubscribes or closes. */
  unsubscribeResource(uri: string): Promise<void>;
  /** Registers a listener for upstream changes; returns its removal. */
  onChanged(listener: (change: PassThroughChange) => void): () => void;
}
