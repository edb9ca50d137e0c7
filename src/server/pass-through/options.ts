import type { Result, ServerCapabilities, ServerContext } from "@modelcontextprotocol/server";
import type { PassThroughRequestOptions, PassThroughSource } from "./source.ts";

export interface PassThroughOptions {
  /** Items per page of the merged lists (default 500). */
  pageSize?: number;
  /** Where left-out items (name clashes) and unlistable servers are reported, once each; default stderr. */
  warn?: (message: string) => void;
  /**
   * Runs each forwarded request that goes to one server and may make it ask the client
   * something (`tools/call`, `prompts/get`, `resources/read`, `completion/complete`).
   * Default: runs it with the request's signal.
   */
  around?: PassThroughAround;
  /**
   * With a source picker: every source it may pick, whose changes reach this
   * session's clients (the picked ones are only known at the first request).
   */
  listenTo?: readonly PassThroughSource[];
}

/**
 * Picks this session's sources when its first request arrives (e.g. by the client's
 * protocol era, which is unknown before it connects); called once.
 */
export type SourcePicker = () => readonly PassThroughSource[];

/**
 * The gateway's hold on a forwarded request: it can mark the call in flight on `server`
 * (so that server's sampling, elicitation and roots requests reach this client), say who
 * calls (`caller`), and with 2026-07-28 clients answer an input-required result and
 * resume the call on the client's retry (then `signal` is the call's own, not the request's).
 */
export type PassThroughAround = (
  ctx: ServerContext,
  server: string,
  run: (extra: PassThroughRequestOptions) => Promise<Result>,
) => Promise<Result>;

export interface PassThroughRegistration {
  /** Stops forwarding upstream changes and drops this session's resource subscriptions. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Declared up front for every pass-through front end: the SDK takes capabilities only
 * before connect, and a server that is down at start may come back with any of them.
 * A family no upstream offers just lists empty.
 */
export const PASS_THROUGH_CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
} as const satisfies ServerCapabilities;
