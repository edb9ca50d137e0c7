import type { ServerContext } from "@modelcontextprotocol/server";
import { DEFAULT_SESSION } from "../gateway/types.ts";

/**
 * Who a front-end request comes from: the HTTP client (by token) or the local
 * one (null), and the session its calls use when they name none.
 */
export interface Caller {
  readonly client: string | null;
  /** The session of a request that names none. */
  defaultSession(ctx: ServerContext): string;
}

/**
 * The default session: over session-based HTTP (2025 era) the MCP session, so
 * each connection has its own workspace; over stateless HTTP (2026-07-28) there
 * is no MCP session, so each client has one default (the explicit `session`
 * argument is the state handle); over stdio the gateway's default.
 */
export function callerOf(client: string | undefined): Caller {
  return {
    client: client ?? null,
    defaultSession: (ctx) => ctx.sessionId ?? (client === undefined ? DEFAULT_SESSION : `client-${client}`),
  };
}
