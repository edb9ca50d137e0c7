import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { isInitializeRequest } from "@modelcontextprotocol/server";
import type { Gateway } from "../../gateway/gateway.ts";
import type { Logger } from "../../gateway/logger.ts";
import type { RateTake } from "../../store/domains.ts";
import { createMcpServer } from "../create-mcp-server.ts";
import { SessionEventStore } from "./event-store.ts";
import { sendError } from "./send-error.ts";
import { HttpSessionTable } from "./session-table.ts";

/** The SSE `retry` the server announces: how soon a client reconnects a lost stream. */
export const SSE_RETRY_MS = 1000;

export interface LegacySessionOptions {
  mcpPath: string;
  maxSessions: number;
  maxSessionsPerClient: number;
  admitExecution: (client: string) => Promise<RateTake>;
  logger: Logger;
}

/**
 * Session-based Streamable HTTP for 2025-era clients (protocol 2025-11-25,
 * 2025-06-18, 2025-03-26): an `initialize` opens a session (its own MCP server
 * and transport), owned by the client that opened it; its SSE streams are
 * resumable (event ids, `Last-Event-ID` replay from a bounded per-session store).
 */
export class LegacySessions {
  readonly #table = new HttpSessionTable();

  constructor(
    private readonly gateway: Gateway,
    private readonly options: LegacySessionOptions,
  ) {}

  get size(): number {
    return this.#table.size;
  }

  ids(): string[] {
    return this.#table.ids();
  }

  async close(id: string): Promise<void> {
    const session = this.#table.take(id);
    await session?.server.close().catch(() => {});
  }

  idleSince(now: number, idleMs: number): string[] {
    return this.#table.idleSince(now, idleMs);
  }

  async post(
    request: IncomingMessage,
    response: ServerResponse,
    client: string,
    body: unknown,
  ): Promise<void> {
    const sessionId = headerValue(request, "mcp-session-id");
    if (sessionId !== undefined) {
      // Another client's session is as unknown as one that never existed.
      const session = this.#table.get(sessionId, client);
      if (!session) return sendError(response, 404, `unknown session "${sessionId.slice(0, 200)}"`);
      this.#table.use(session, response);
      return session.transport.handleRequest(request, response, body);
    }
    if (!isInitializeRequest(body)) {
      return sendError(
        response,
        400,
        "no mcp-session-id header: send an initialize request first (protocol 2025-era), or a request with the 2026-07-28 _meta envelope",
      );
    }
    const { maxSessionsPerClient: perClient, mcpPath } = this.options;
    const room = this.#table.makeRoom(client, perClient);
    if (!room.ok) {
      response.setHeader("Retry-After", "5");
      return sendError(
        response,
        429,
        `client "${client}" has ${room.open} open sessions, each with a call in progress (toolscript.server.http.maxSessionsPerClient is ${perClient}): end one (DELETE ${mcpPath} with its Mcp-Session-Id) or retry later`,
      );
    }
    // Counted from here, so a concurrent initialize of the same client sees this one.
    const started = this.#table.starting(client);
    response.once("close", started);
    if (room.evict) {
      this.options.logger.info(
        `HTTP client "${client}" reached ${perClient} sessions: closing its least recently used one`,
      );
      await this.close(room.evict.id);
    }
    if (this.#table.size >= this.options.maxSessions)
      return sendError(response, 503, "too many open sessions; try again later");
    const server = createMcpServer(this.gateway, {
      client,
      admitExecution: () => this.options.admitExecution(client),
    });
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        started();
        // The MCP session is also the default `session` of its executions: claimed now, so no
        // other client can take its name first.
        // Not awaited (this callback is synchronous); a claim that fails is made again by the first execution.
        void this.gateway.sessionRefusal(id, client, { claim: true });
        const session = { client, transport, server, lastSeen: Date.now(), busy: 0 };
        this.#table.add(id, session);
        this.#table.use(session, response);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#table.take(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, response, body);
  }

  /** GET (the standalone stream, or a resumption with Last-Event-ID) and DELETE of a session. */
  async other(request: IncomingMessage, response: ServerResponse, client: string): Promise<void> {
    const sessionId = headerValue(request, "mcp-session-id");
    const session = sessionId === undefined ? undefined : this.#table.get(sessionId, client);
    if (!session)
      return sendError(response, sessionId === undefined ? 400 : 404, "unknown or missing session");
    // An open GET stream does not make a session busy: a client that went away without DELETE
    // may not have closed it yet, and its place must be free for the next session.
    if (request.method === "GET") session.lastSeen = Date.now();
    else this.#table.use(session, response);
    return session.transport.handleRequest(request, response);
  }
}

export function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
