import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import { DEFAULT_HTTP_MAX_SESSIONS_PER_CLIENT } from "../../config/defaults.ts";
import type { Gateway } from "../../gateway/gateway.ts";
import { type Logger, silentLogger } from "../../gateway/logger.ts";
import { SharedRateLimit } from "../../limits/shared-rate-limit.ts";
import { createMcpServer } from "../create-mcp-server.ts";
import { ServerError } from "../errors.ts";
import { wireFrontEnd } from "../forwarding/wire-front-end.ts";
import { ANONYMOUS_CLIENT, assertAuthConfigured, ClientTokens, TOKEN_SETTINGS } from "./auth.ts";
import { createDashboard, isDashboardPath } from "./dashboard/dashboard-routes.ts";
import { headerValue, LegacySessions } from "./legacy-sessions.ts";
import { checkOrigin, originPolicy } from "./origin-check.ts";
import { answerMetrics, answerProbe, isProbePath, METRICS_PATH } from "./probes.ts";
import { readJsonBody } from "./read-body.ts";
import { sendError } from "./send-error.ts";

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

/**
 * Serves the gateway over Streamable HTTP, both eras on one endpoint:
 * protocol 2026-07-28 requests (the per-request `_meta` envelope) statelessly,
 * one MCP server per request (`server/discover`, no session; the explicit
 * `session` argument is the state handle); 2025-era clients through sessions
 * (`initialize`, Mcp-Session-Id), each owned by the client that opened it.
 */
export async function serveHttp(gateway: Gateway, options: HttpServeOptions): Promise<RunningHttpServer> {
  const logger = options.logger ?? silentLogger;
  const tokens = new ClientTokens({ token: options.token, clients: options.clients });
  assertAuthConfigured(options.host, tokens, options.allowUnauthenticatedLoopback);
  wireFrontEnd(gateway);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  // Per client across replicas on a PostgreSQL store (key client:<name>), else in this process.
  const rates = new SharedRateLimit(options.executionsPerMinute ?? 0, () => gateway.sharedRates());
  const admitExecution = (client: string) => rates.tryTake(`client:${client}`);
  let policy = originPolicy(options.host, options.port, options.allowedHosts, options.allowedOrigins);
  const sessions = new LegacySessions(gateway, {
    mcpPath: MCP_PATH,
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    maxSessionsPerClient: options.maxSessionsPerClient ?? DEFAULT_HTTP_MAX_SESSIONS_PER_CLIENT,
    admitExecution,
    logger,
  });

  // The client (by token) rides to the per-request server as the request's auth info.
  const modern = createMcpHandler(
    (ctx) => {
      const client = ctx.authInfo?.clientId ?? ANONYMOUS_CLIENT;
      return createMcpServer(gateway, {
        client,
        admitExecution: () => admitExecution(client),
        perRequest: true,
      });
    },
    {
      legacy: "reject",
      maxRequestBodySize: maxBodyBytes,
    },
  );
  const serveModern = toNodeHandler(modern, {
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => logger.error(`HTTP request failed: ${error.message}`),
  });
  // Open `subscriptions/listen` streams hear of servers coming and going.
  const stopNotify = gateway.catalog.onChange(() => {
    modern.notify.toolsChanged();
    modern.notify.resourcesChanged();
  });
  // A saved skill changes resources/list and skills/list (the skills extension).
  const stopSkillsNotify = gateway.skills.onChange(() => modern.notify.resourcesChanged());
  // The operator's page: the same tokens as /mcp (once, for a cookie), or none on anonymous loopback.
  const dashboard = createDashboard(gateway, { tokens });

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (request.method === "GET" && isProbePath(url.pathname))
      return answerProbe(gateway, url.pathname, response);
    if (isDashboardPath(url.pathname)) {
      const refused = checkOrigin(request, policy);
      if (refused) return sendError(response, 403, refused);
      return dashboard.handle(request, response, url);
    }
    if (url.pathname !== MCP_PATH && url.pathname !== METRICS_PATH)
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
    // Metrics need the same token as MCP: they name servers, tools and sessions' activity.
    if (url.pathname === METRICS_PATH) {
      if (request.method !== "GET") return sendError(response, 405, `${METRICS_PATH} answers GET only`);
      return answerMetrics(gateway, response);
    }
    const auth = { token: "", clientId: client, scopes: [] as string[] };
    if (request.method === "POST") {
      const body = await readJsonBody(request, maxBodyBytes);
      if (!body.ok)
        return sendError(response, body.status, body.message, body.status === 400 ? -32700 : -32600);
      const legacy =
        headerValue(request, "mcp-session-id") !== undefined ||
        (await isLegacyRequest(await toWebRequest(request, body.value), body.value, {
          maxRequestBodySize: maxBodyBytes,
        }));
      if (legacy) return sessions.post(request, response, client, body.value);
      return serveModern(Object.assign(request, { auth }), response, body.value);
    }
    if (request.method === "GET" || request.method === "DELETE") {
      // Session operations of 2025-era clients; without a session the stateless protocol answers (405).
      if (headerValue(request, "mcp-session-id") !== undefined)
        return sessions.other(request, response, client);
      return serveModern(Object.assign(request, { auth }), response);
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
      for (const id of sessions.idleSince(now, idleMs)) void sessions.close(id);
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
      stopNotify();
      stopSkillsNotify();
      dashboard.close();
      await Promise.all(sessions.ids().map((id) => sessions.close(id)));
      await modern.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
