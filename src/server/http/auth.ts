import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { ServerError } from "../errors.ts";

/** The client `toolscript.server.http.token` (or TOOLSCRIPT_HTTP_TOKEN) stands for. */
export const DEFAULT_CLIENT = "default";
/** The one client of a loopback server that lets clients skip the token. */
export const ANONYMOUS_CLIENT = "anonymous";

/** Where a token is configured, for error messages. */
export const TOKEN_SETTINGS =
  "toolscript.server.http.token (or TOOLSCRIPT_HTTP_TOKEN), or one per client in toolscript.server.http.clients";

export interface ClientTokenOptions {
  /** The single token: one client named "default". */
  token?: string | undefined;
  /** Client name → token. */
  clients?: Readonly<Record<string, string>> | undefined;
}

/**
 * The HTTP clients and their tokens. Tokens are kept as SHA-256 digests and
 * every one is compared, in constant time, on each request: neither the match
 * nor the lengths show in the timing.
 */
export class ClientTokens {
  readonly #clients: ReadonlyArray<{ name: string; digest: Buffer }>;

  constructor(options: ClientTokenOptions) {
    const entries = Object.entries(options.clients ?? {});
    if (options.token) {
      if (options.clients && Object.hasOwn(options.clients, DEFAULT_CLIENT))
        throw new ServerError(
          "server.bad_clients",
          `toolscript.server.http.clients names a client "${DEFAULT_CLIENT}", which is the name of toolscript.server.http.token (or TOOLSCRIPT_HTTP_TOKEN): rename it or drop the single token`,
        );
      entries.push([DEFAULT_CLIENT, options.token]);
    }
    const seen = new Map<string, string>();
    for (const [name, token] of entries) {
      if (!token)
        throw new ServerError("server.bad_clients", `the token of HTTP client "${name}" is empty`, { name });
      const other = seen.get(token);
      if (other !== undefined)
        throw new ServerError(
          "server.bad_clients",
          `HTTP clients "${other}" and "${name}" have the same token: give each client its own, or they cannot be told apart`,
          { names: [other, name] },
        );
      seen.set(token, name);
    }
    this.#clients = entries.map(([name, token]) => ({ name, digest: digest(token) }));
  }

  get size(): number {
    return this.#clients.length;
  }

  /** The name of the client whose token the request carries (`Authorization: Bearer <token>`), if any. */
  identify(request: IncomingMessage): string | undefined {
    const header = request.headers.authorization;
    if (typeof header !== "string") return undefined;
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (!match?.[1]) return undefined;
    return this.identifyToken(match[1]);
  }

  /** The name of the client whose token `token` is, if any (the dashboard's login sends it once). */
  identifyToken(token: string): string | undefined {
    if (!token) return undefined;
    const given = digest(token);
    let found: string | undefined;
    for (const client of this.#clients) {
      if (timingSafeEqual(given, client.digest) && found === undefined) found = client.name;
    }
    return found;
  }
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Throws `server.no_token` when a server on `host` would accept anyone: no
 * token, no clients, and unauthenticated loopback not allowed (or not loopback).
 * The CLI calls it before any upstream starts.
 */
export function assertAuthConfigured(
  host: string,
  tokens: ClientTokens,
  allowUnauthenticatedLoopback: boolean | undefined,
): void {
  if (tokens.size > 0) return;
  const loopback = isLoopbackHost(host);
  if (loopback && allowUnauthenticatedLoopback) return;
  throw new ServerError(
    "server.no_token",
    loopback
      ? `HTTP mode needs a bearer token: set ${TOKEN_SETTINGS}; or let loopback clients skip it with toolscript.server.http.allowUnauthenticatedLoopback: true`
      : `HTTP mode on a non-loopback address (${host}) needs a bearer token: set ${TOKEN_SETTINGS}`,
  );
}
