import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
  McpServer,
  ProgressToken,
  ServerContext,
} from "@modelcontextprotocol/server";

/** Options of a request sent to the client. */
export interface ClientRequestOptions {
  signal?: AbortSignal;
  /** Sent as related to this in-flight request (its progress token), so it travels on that request's stream. */
  relatedTo?: ProgressToken;
}

/**
 * What the gateway can do with the client of one front-end connection: know
 * what it declared, send it log messages and progress, and forward requests
 * (sampling, elicitation, roots) an upstream server makes.
 *
 * Over stateless HTTP (protocol 2026-07-28) a connection is one request: the
 * server cannot push requests (they become input-required results), so the
 * request senders are undefined there.
 */
export interface ClientConnection {
  /** "modern": protocol 2026-07-28 (per-request envelope); "legacy": a 2025-era initialize handshake. */
  era(): "modern" | "legacy";
  /** The capabilities the client declared (at initialize, or on the request's envelope); undefined before. */
  capabilities(): ClientCapabilities | undefined;
  /** The protocol version in use with this client; undefined before it is known. */
  protocolVersion(): string | undefined;
  /**
   * A log message to the client, dropped when below the level it set with
   * `logging/setLevel` (the server declares the `logging` capability). With an
   * in-flight request (see `track`), it travels on that request's stream.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Progress of the in-flight request that gave `token` as its progress token; a no-op for unknown tokens. */
  progress(token: ProgressToken, progress: number, total?: number, message?: string): Promise<void>;
  /** Sends `sampling/createMessage` to the client; undefined when it cannot answer one. */
  sampling():
    | ((
        params: CreateMessageRequest["params"],
        options?: ClientRequestOptions,
      ) => Promise<CreateMessageResult | CreateMessageResultWithTools>)
    | undefined;
  /** Sends `elicitation/create` to the client; undefined when it cannot answer one (or not in that mode). */
  elicitation(
    mode?: "form" | "url",
  ):
    | ((
        params: ElicitRequestFormParams | ElicitRequestURLParams,
        options?: ClientRequestOptions,
      ) => Promise<ElicitResult>)
    | undefined;
  /** Sends `roots/list` to the client; undefined when it cannot answer one. */
  roots(): ((options?: ClientRequestOptions) => Promise<ListRootsResult>) | undefined;
  /**
   * Records a request in flight (its handler context) until the returned
   * function is called: its progress token then reaches `progress`.
   */
  track(ctx: ServerContext): () => void;
}

const connections = new WeakMap<McpServer, ClientConnection>();

/** The connection handle of a server made by createMcpServer. */
export function connectionOf(server: McpServer): ClientConnection {
  let connection = connections.get(server);
  if (!connection) {
    connection = createClientConnection(server);
    connections.set(server, connection);
  }
  return connection;
}

const ENVELOPE_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/** Whether the request came with the 2026-07-28 per-request envelope. */
export function isModernRequest(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[ENVELOPE_VERSION_KEY] !== undefined;
}

/**
 * The key `track(ctx)` files a request under: its progress token, else its id (without a
 * token the request is still tracked: log messages and requests to the client ride its
 * stream). Pass it as `relatedTo` to send a request to the client with that request.
 */
export function trackKey(ctx: ServerContext): ProgressToken {
  const token = (ctx.mcpReq._meta as { progressToken?: ProgressToken } | undefined)?.progressToken;
  return token ?? `request:${String(ctx.mcpReq.id)}`;
}

function createClientConnection(mcp: McpServer): ClientConnection {
  const server = mcp.server;
  /** In-flight requests by progress token, most recent last. */
  const inFlight = new Map<ProgressToken, ServerContext>();
  let lastModern = false;

  const era = () => (lastModern ? "modern" : "legacy");
  const pushAllowed = () => era() === "legacy" && server.getClientVersion() !== undefined;
  const related = (token: ProgressToken | undefined) => {
    const ctx = token === undefined ? undefined : inFlight.get(token);
    return ctx === undefined ? {} : { relatedRequestId: ctx.mcpReq.id };
  };

  return {
    era,
    capabilities: () => server.getClientCapabilities(),
    protocolVersion: () => server.getNegotiatedProtocolVersion(),
    async log(level, data, logger) {
      const latest = [...inFlight.values()].at(-1);
      // The request's own log function applies the level the client set and rides its stream.
      if (latest) return latest.mcpReq.log(level, data, logger);
      if (!pushAllowed()) return;
      await server.sendLoggingMessage(
        { level, data, ...(logger !== undefined && { logger }) },
        server.transport?.sessionId,
      );
    },
    async progress(token, progress, total, message) {
      const ctx = inFlight.get(token);
      if (!ctx) return;
      await ctx.mcpReq.notify({
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress,
          ...(total !== undefined && { total }),
          ...(message !== undefined && { message }),
        },
      });
    },
    sampling() {
      if (!pushAllowed() || !server.getClientCapabilities()?.sampling) return undefined;
      return (params, options = {}) =>
        server.createMessage(params, { signal: options.signal, ...related(options.relatedTo) });
    },
    elicitation(mode = "form") {
      const declared = server.getClientCapabilities()?.elicitation as
        | { form?: unknown; url?: unknown }
        | undefined;
      if (!pushAllowed() || !declared) return undefined;
      // A bare `elicitation: {}` means form support (the rule before modes existed).
      const modes = declared.form === undefined && declared.url === undefined ? { form: {} } : declared;
      if (modes[mode] === undefined) return undefined;
      return (params, options = {}) =>
        server.elicitInput(params, { signal: options.signal, ...related(options.relatedTo) });
    },
    roots() {
      if (!pushAllowed() || !server.getClientCapabilities()?.roots) return undefined;
      return (options = {}) =>
        server.listRoots(undefined, { signal: options.signal, ...related(options.relatedTo) });
    },
    track(ctx) {
      lastModern = isModernRequest(ctx);
      const key = trackKey(ctx);
      inFlight.set(key, ctx);
      return () => {
        if (inFlight.get(key) === ctx) inFlight.delete(key);
      };
    },
  };
}
