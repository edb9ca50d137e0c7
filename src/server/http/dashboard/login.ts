import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ClientTokens } from "../auth.ts";
import { sendLoginPage } from "./login-page.ts";

export const DASHBOARD_COOKIE = "toolscript_dashboard";
export const DASHBOARD_PATH = "/dashboard";
/** A login lasts a working day; then the token is asked for again. */
export const DASHBOARD_SESSION_TTL_MS = 12 * 60 * 60_000;
/** Logins held at once; the oldest goes first (each is a few bytes, but a loop of logins must not grow memory). */
export const MAX_DASHBOARD_SESSIONS = 1000;

export type DashboardAccess = { ok: true; client: string } | { ok: false; why: string };

export interface DashboardLoginOptions {
  ttlMs?: number;
  maxSessions?: number;
  now?: () => number;
}

/**
 * Who may see the dashboard. With tokens configured: a request with a valid
 * bearer token, or a browser holding the cookie of a login. The cookie holds
 * a random session id mapped in memory to the client that logged in, never
 * the token; a restart logs everyone out. Without tokens (an anonymous
 * loopback server, the loopback admin port) everyone who reaches the port may.
 */
export class DashboardLogins {
  readonly #tokens: ClientTokens | undefined;
  /** Session id → client and expiry; insertion order is age order. */
  readonly #sessions = new Map<string, { client: string; expires: number }>();
  readonly #ttlMs: number;
  readonly #maxSessions: number;
  readonly #now: () => number;

  constructor(tokens: ClientTokens | undefined, options: DashboardLoginOptions = {}) {
    this.#tokens = tokens !== undefined && tokens.size > 0 ? tokens : undefined;
    this.#ttlMs = options.ttlMs ?? DASHBOARD_SESSION_TTL_MS;
    this.#maxSessions = options.maxSessions ?? MAX_DASHBOARD_SESSIONS;
    this.#now = options.now ?? Date.now;
  }

  /** True when no token is asked for. */
  get open(): boolean {
    return this.#tokens === undefined;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** A new session for the client whose token `token` is; undefined for a wrong token. */
  login(token: string): { client: string; sessionId: string } | undefined {
    if (!this.#tokens) return { client: "anonymous", sessionId: "" };
    const client = this.#tokens.identifyToken(token);
    if (client === undefined) return undefined;
    this.#sweep();
    while (this.#sessions.size >= this.#maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest === undefined) break;
      this.#sessions.delete(oldest);
    }
    const sessionId = randomBytes(32).toString("base64url");
    this.#sessions.set(sessionId, { client, expires: this.#now() + this.#ttlMs });
    return { client, sessionId };
  }

  authorize(request: IncomingMessage): DashboardAccess {
    if (!this.#tokens) return { ok: true, client: "anonymous" };
    if (request.headers.authorization !== undefined) {
      const client = this.#tokens.identify(request);
      return client === undefined ? { ok: false, why: "wrong bearer token" } : { ok: true, client };
    }
    const id = readCookie(request, DASHBOARD_COOKIE);
    if (id === undefined)
      return { ok: false, why: "not logged in: give the gateway's HTTP token once to get a session cookie" };
    const session = this.#sessions.get(id);
    if (!session || session.expires <= this.#now()) {
      if (session) this.#sessions.delete(id);
      return {
        ok: false,
        why: "the dashboard session expired or is unknown (the gateway may have restarted): log in again",
      };
    }
    return { ok: true, client: session.client };
  }

  /**
   * `Set-Cookie` for a session: HttpOnly (no script reads it), SameSite=Strict
   * (no other site's page sends it), scoped to the dashboard's paths; Secure
   * when the browser came over https (through a proxy that says so).
   */
  cookie(sessionId: string, secure: boolean): string {
    const maxAge = Math.floor(this.#ttlMs / 1000);
    return `${DASHBOARD_COOKIE}=${sessionId}; HttpOnly; SameSite=Strict; Path=${DASHBOARD_PATH}; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [id, session] of this.#sessions) if (session.expires <= now) this.#sessions.delete(id);
  }
}

/**
 * `GET /dashboard?token=T`: a valid token gets a session cookie and a 303 to
 * the clean `/dashboard` (the token leaves the address bar and the history);
 * a wrong one gets the login page saying so.
 */
export function answerLogin(
  logins: DashboardLogins,
  request: IncomingMessage,
  response: ServerResponse,
  token: string,
): void {
  const session = logins.login(token);
  if (!session) {
    sendLoginPage(response, "wrong token: it is none of the tokens configured for this gateway");
    return;
  }
  const headers: Record<string, string> = { location: DASHBOARD_PATH, "cache-control": "no-store" };
  if (!logins.open) headers["set-cookie"] = logins.cookie(session.sessionId, cameOverHttps(request));
  response.writeHead(303, headers);
  response.end();
}

function cameOverHttps(request: IncomingMessage): boolean {
  const socket = request.socket as { encrypted?: boolean };
  const forwarded = request.headers["x-forwarded-proto"];
  return socket.encrypted === true || (typeof forwarded === "string" && /^https\b/i.test(forwarded));
}

/** The value of cookie `name` in the request's Cookie header, if any. */
export function readCookie(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== "string") return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index !== -1 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}
