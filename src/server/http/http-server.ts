import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Gateway } from "../../gateway/gateway.ts";
import { type Logger, silentLogger } from "../../gateway/logger.ts";
import { KeyedRateWindows } from "../../limits/rate-window.ts";
import { createMcpServer } from "../create-mcp-server.ts";
import { ServerError } from "../errors.ts";
import { hasBearerToken, isLoopbackHost } from "./auth.ts";
import { checkOrigin, originPolicy } from "./origin-check.ts";
import { readJsonBody } from "./read-body.ts";

export const MCP_PATH = "/mcp";
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_SESSIONS = 1000;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

export interface HttpServeOptions {
  host: string;
  port: number;
  token?: string | undefined;
  /** Lets clients skip the token, only when bound to loopback. */
  allowUnauthenticatedLoopback?: boolean;
  allowedHosts?: readonly string[] | undefined;
  allowedOrigins?: readonly string[] | undefined;
  maxBodyBytes?: number;
  maxSessions?: number;
  /** execute_code calls per minute per client (token, else address); 0 = unlimited. */
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

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
}

/** Serves the gateway over Streamable HTTP, one MCP server per session. */
export async function serveHttp(gateway: Gateway, options: HttpServeOptions): Promise<RunningHttpServer> {
  const logger = options.logger ?? silentLogger;
  const loopback = isLoopbackHost(options.host);
  const token = options.token;
  if (!token && !(loopback && options.allowUnauthenticatedLoopback)) {
    throw new ServerError(
      "server.no_token",
      loopback
        ? "HTTP mode needs a bearer token: set toolscript.server.http.token (or TOOLSCRIPT_HTTP_TOKEN), or allow unauthenticated loopback clients with toolscript.server.http.allowUnauthenticatedLoopback"
        : `HTTP mode on a non-loopback address (${options.host}) needs a bearer token: set toolscript.server.http.token (or TOOLSCRIPT_HTTP_TOKEN)`,
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sessions = new Map<string, Session>();
  const rates = new KeyedRateWindows(options.executionsPerMinute ?? 0);
  let policy = originPolicy(options.host, options.port, options.allowedHosts, options.allowedOrigins);

  const closeSession = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.server.close().catch(() => {});
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== MCP_PATH)
      return sendError(response, 404, `not found; the MCP endpoint is ${MCP_PATH}`);
    const refused = checkOrigin(request, policy);
    if (refused) return sendError(response, 403, refused);
    if (token && !hasBearerToken(request, token)) {
      response.setHeader("WWW-Authenticate", 'Bearer realm="toolscript"');
      return sendError(response, 401, "missing or wrong bearer token");
    }
    const sessionId = headerValue(request, "mcp-session-id");
    if (request.method === "POST") {
      const body = await readJsonBody(request, maxBodyBytes);
      if (!body.ok)
        return sendError(response, body.status, body.message, body.status === 400 ? -32700 : -32600);
      if (sessionId !== undefined) {
        const session = sessions.get(sessionId);
        if (!session) return sendError(response, 404, `unknown session "${sessionId}"`);
        session.lastSeen = Date.now();
        return session.transport.handleRequest(request, response, body.value);
      }
      if (!isInitializeRequest(body.value)) {
        return sendError(response, 400, "no mcp-session-id header: send an initialize request first");
      }
      if (sessions.size >= maxSessions)
        return sendError(response, 503, "too many open sessions; try again later");
      // Clients are told apart by their token when they send one, else by address.
      const clientKey = request.headers.authorization ?? request.socket.remoteAddress ?? "unknown";
      const server = createMcpServer(gateway, { admitExecution: () => rates.tryTake(clientKey) });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server, lastSeen: Date.now() });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      return transport.handleRequest(request, response, body.value);
    }
    if (request.method === "GET" || request.method === "DELETE") {
      const session = sessionId === undefined ? undefined : sessions.get(sessionId);
      if (!session)
        return sendError(response, sessionId === undefined ? 400 : 404, "unknown or missing session");
      session.lastSeen = Date.now();
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
      for (const [id, session] of sessions) if (now - session.lastSeen > idleMs) void closeSession(id);
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
      await Promise.all([...sessions.keys()].map(closeSession));
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
