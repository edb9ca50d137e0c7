import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { DEFAULT_HTTP_MAX_SESSIONS_PER_CLIENT } from "../../config/defaults.ts";
import type { Gateway } from "../../gateway/gateway.ts";
import { type Logger, silentLogger } from "../../gateway/logger.ts";
import { KeyedRateWindows } from "../../limits/rate-window.ts";
import { createMcpServer } from "../create-mcp-server.ts";
import { ServerError } from "../errors.ts";
import { ANONYMOUS_CLIENT, assertAuthConfigured, ClientTokens, TOKEN_SETTINGS } from "./auth.ts";
import { checkOrigin, originPolicy } from "./origin-check.ts";
import { readJsonBody } from "./read-body.ts";
import { HttpSessionTable } from "./session-table.ts";

export const MCP_PATH = "/mcp";
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_SESSIONS = 1000;
export { DEFAULT_HTTP_MAX_SESSIONS_PER_CLIENT as DEFAULT_MAX_SESSIONS_PER_CLIENT } from "../../config/defaults.ts";
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

export interface HttpServeOptions {
  host: string;
  port: number;
  /** The single token: one client, named "default". */
  token?: string | undefined;
  /** Several clients with their own tokens (name → token); each owns the sessions it creates. */
  clients?: Readonly<Record<string, string>> | undefined;
  /** Lets clients skip the token (as one client, "anonymous"), only when bound to loopback and no token is set. */
  allowUnauthenticatedLoopback?: boolean;
  allowedHosts?: readonly string[] | undefined;
  allowedOrigins?: readonly string[] | undefined;
  maxBodyBytes?: number;
  /** Open sessions, all clients together. */
  maxSessions?: number;
  /**
   * Open sessions per client. At the cap, a new session closes the client's least
   * recently used session that has no POST/DELETE in progress (an open GET stream does not
   * count); when every one is busy it is refused (429).
   */
  maxSessionsPerClient?: number;
  /** execute_code calls per minute per client; 0 = unlimited. */
  executionsPerMinute?: number;
  sessionIdleMs?: number;
  logger?: Logger;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  sessionCount(): number;
  close(): Promise<void>;
}

/** Serves the gateway over Streamable HTTP, one MCP server per session, each session owned by one client. */
export async function serveHttp(gateway: Gateway, options: HttpServeOptions): Promise<RunningHttpServer> {
  const logger = options.logger ?? silentLogger;
  const tokens = new ClientTokens({ token: options.token, clients: options.clients });
  assertAuthConfigured(options.host, tokens, options.allowUnauthenticatedLoopback);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const perClient = options.maxSessionsPerClient ?? DEFAULT_HTTP_MAX_SESSIONS_PER_CLIENT;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sessions = new HttpSessionTable();
  const rates = new KeyedRateWindows(options.executionsPerMinute ?? 0);
  let policy = originPolicy(options.host, options.port, options.allowedHosts, options.allowedOrigins);

  const closeSession = async (id: string) => {
    const session = sessions.take(id);
    await session?.server.close().catch(() => {});
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== MCP_PATH)
      return sendError(response, 404, `not found; the MCP endpoint is ${MCP_PATH}`);
    const refused = checkOrigin(request, policy);
    if (refused) return sendError(response, 403, refused);
    const client = tokens.size === 0 ? ANONYMOUS_CLIENT : tokens.identify(request);
    if (client === undefined) {
      response.setHeader("WWW-Authenticate", 'Bearer realm="toolscript"');
      return sendError(
        response,
        401,
        `${request.headers.authorization === undefined ? "missing" : "wrong"} bearer token: send the header "Authorization: Bearer <token>" with a token configured in ${TOKEN_SETTINGS}`,
      );
    }
    const sessionId = headerValue(request, "mcp-session-id");
    if (request.method === "POST") {
      const body = await readJsonBody(request, maxBodyBytes);
      if (!body.ok)
        return sendError(response, body.status, body.message, body.status === 400 ? -32700 : -32600);
      if (sessionId !== undefined) {
        // Another client's session is as unknown as one that never existed.
        const session = sessions.get(sessionId, client);
        if (!session) return sendError(response, 404, `unknown session "${sessionId.slice(0, 200)}"`);
        sessions.use(session, response);
        return session.transport.handleRequest(request, response, body.value);
      }
      if (!isInitializeRequest(body.value)) {
        return sendError(response, 400, "no mcp-session-id header: send an initialize request first");
      }
      const room = sessions.makeRoom(client, perClient);
      if (!room.ok) {
        response.setHeader("Retry-After", "5");
        return sendError(
          response,
          429,
          `client "${client}" has ${room.open} open sessions, each with a call in progress (toolscript.server.http.maxSessionsPerClient is ${perClient}): end one (DELETE ${MCP_PATH} with its Mcp-Session-Id) or retry later`,
        );
      }
      // Counted from here, so a concurrent initialize of the same client sees this one.
      const started = sessions.starting(client);
      response.once("close", started);
      if (room.evict) {
        logger.info(
          `HTTP client "${client}" reached ${perClient} sessions: closing its least recently used one`,
        );
        await closeSession(room.evict.id);
      }
      if (sessions.size >= maxSessions)
        return sendError(response, 503, "too many open sessions; try again later");
      const server = createMcpServer(gateway, { client, admitExecution: () => rates.tryTake(client) });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          started();
          // The MCP session is also the default `session` of its executions: claimed now, so no
          // other client can take its name first.
          gateway.sessionRefusal(id, client, { claim: true });
          const session = { client, transport, server, lastSeen: Date.now(), busy: 0 };
          sessions.add(id, session);
          sessions.use(session, response);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.take(transport.sessionId);
      };
      await server.connect(transport);
      return transport.handleRequest(request, response, body.value);
    }
    if (request.method === "GET" || request.method === "DELETE") {
      const session = sessionId === undefined ? undefined : sessions.get(sessionId, client);
      if (!session)
        return sendError(response, sessionId === undefined ? 400 : 404, "unknown or missing session");
      // An open GET stream does not make a session busy: a client that went away without DELETE
      // may not have closed it yet, and its place must be free for the next session.
      if (request.method === "GET") session.lastSeen = Date.now();
      else sessions.use(session, response);
      return session.transport.handleRequest(request, response);
    }
    response.setHeader("Allow", "GET, POST, DELETE");
    return sendError(response, 405, `method ${request.method} not allowed`);
  };

  const http: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      logger.error(`HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) sendError(response, 500, "internal error");
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", (error) =>
      reject(
        new ServerError(
          "server.listen_failed",
          `cannot listen on ${options.host}:${options.port}: ${error.message}`,
          {},
          { cause: error },
        ),
      ),
    );
    http.listen(options.port, options.host, () => resolve());
  });
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  // With port 0 the OS picks the port; the allowed Host values must name it.
  policy = originPolicy(options.host, port, options.allowedHosts, options.allowedOrigins);

  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const id of sessions.idleSince(now, idleMs)) void closeSession(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();

  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}${MCP_PATH}`,
    port,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweeper);
      await Promise.all(sessions.ids().map(closeSession));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendError(response: ServerResponse, status: number, message: string, code = -32000): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
