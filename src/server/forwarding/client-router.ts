import { randomUUID } from "node:crypto";
import type {
  CreateMessageRequest,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  InputRequest,
  LoggingLevel,
  ProgressToken,
} from "@modelcontextprotocol/server";
import { ClientCannotAnswer, isLogLevel, LOG_LEVELS } from "../../upstream/forwarding.ts";
import type { ClientRequestHooks, ClientRequestInfo, LogLevel } from "../../upstream/types.ts";
import type { InputAsker } from "../approval-rounds.ts";
import type { ClientConnection } from "../client-connection.ts";

/** Who answers what an upstream server asks during one front-end call. */
export interface Answerer {
  connection: ClientConnection;
  /**
   * 2026-07-28 clients: the question goes into an input-required round of the
   * paused call. Absent: a 2025-era client, asked by a request on its session.
   */
  ask?: InputAsker | undefined;
  /** 2025-era: the in-flight request (its `track` key) the request to the client rides with. */
  relatedTo?: ProgressToken | undefined;
}

interface Attached {
  connection: ClientConnection;
  level?: LogLevel;
}

/**
 * Routes what upstream servers ask and say to the front-end clients:
 *
 * - sampling, elicitation and roots requests (the hooks, declared to every
 *   upstream) go to the client whose call is in flight on that server, most
 *   recent first (a pass-through call, or a program's tool call), else to the
 *   only connected client when there is exactly one (stdio); a 2025-era client
 *   gets a real request on its session, a 2026-07-28 client an input-required
 *   result of its paused call. A client that cannot answer (none, or it did
 *   not declare the capability) is refused clearly with `ClientCannotAnswer`;
 * - log messages go to every connected client, each keeping only the levels it
 *   asked for; the least severe level any client asked is asked of upstreams.
 */
export class ClientRouter implements ClientRequestHooks {
  readonly #inFlight = new Map<string, Answerer[]>();
  readonly #attached = new Set<Attached>();
  #applyLevel: ((level: LogLevel) => void) | undefined;
  #lastLevel: LogLevel | undefined;

  /** Where the aggregated log level goes (the upstream manager); set once wired. */
  onLevel(apply: (level: LogLevel) => void): void {
    this.#applyLevel = apply;
  }

  /** A front-end connection joins (until the returned function is called). */
  attach(connection: ClientConnection): { detach(): void; setLevel(level: string): void } {
    const entry: Attached = { connection };
    this.#attached.add(entry);
    return {
      detach: () => {
        this.#attached.delete(entry);
        this.#levelChanged();
      },
      setLevel: (level) => {
        if (!isLogLevel(level)) return;
        entry.level = level;
        this.#levelChanged();
      },
    };
  }

  /** Marks a call of `connection`'s client in flight on `server` until the returned function is called. */
  begin(server: string, answerer: Answerer): () => void {
    const list = this.#inFlight.get(server) ?? [];
    list.push(answerer);
    this.#inFlight.set(server, list);
    return () => {
      const at = list.indexOf(answerer);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0 && this.#inFlight.get(server) === list) this.#inFlight.delete(server);
    };
  }

  /**
   * An upstream's log message (each client drops levels below its own). While calls are in
   * flight on that server it goes only to their clients: what a server logs during one
   * client's call is not another client's business. Otherwise to every connected client.
   */
  log(server: string, params: unknown): void {
    const { level, data, logger } = (params ?? {}) as { level?: unknown; data?: unknown; logger?: unknown };
    if (!isLogLevel(level)) return;
    const name = typeof logger === "string" ? logger : server;
    const calling = this.#inFlight.get(server);
    const targets = calling?.length
      ? new Set(calling.map((answerer) => answerer.connection))
      : new Set([...this.#attached].map((entry) => entry.connection));
    for (const connection of targets) {
      void connection.log(level as LoggingLevel, data, name).catch(() => {});
    }
  }

  readonly sample = async (
    server: string,
    params: unknown,
    signal: AbortSignal,
    info?: ClientRequestInfo,
  ): Promise<unknown> => {
    const answerer = this.#answerer(server, "sampling/createMessage");
    if (answerer.ask) {
      if (!answerer.connection.capabilities()?.sampling)
        throw new ClientCannotAnswer("the client did not declare the sampling capability");
      const request = { method: "sampling/createMessage", params } as InputRequest;
      return this.#asked(answerer.ask, request, signal, info);
    }
    const send = answerer.connection.sampling();
    if (!send) throw new ClientCannotAnswer("the client did not declare the sampling capability");
    return send(params as CreateMessageRequest["params"], related(answerer, signal));
  };

  readonly elicit = async (
    server: string,
    params: unknown,
    signal: AbortSignal,
    info?: ClientRequestInfo,
  ): Promise<unknown> => {
    const answerer = this.#answerer(server, "elicitation/create");
    const mode = (params as { mode?: unknown } | undefined)?.mode === "url" ? "url" : "form";
    if (answerer.ask) {
      const declared = answerer.connection.capabilities()?.elicitation as
        | { form?: unknown; url?: unknown }
        | undefined;
      const modes =
        declared && declared.form === undefined && declared.url === undefined ? { form: {} } : declared;
      if (modes?.[mode] === undefined)
        throw new ClientCannotAnswer(`the client did not declare ${mode} elicitation`);
      const request = { method: "elicitation/create", params } as InputRequest;
      return this.#asked(answerer.ask, request, signal, info);
    }
    const send = answerer.connection.elicitation(mode);
    if (!send) throw new ClientCannotAnswer(`the client did not declare ${mode} elicitation`);
    return send(params as ElicitRequestFormParams | ElicitRequestURLParams, related(answerer, signal));
  };

  readonly askToOpenUrl = async (server: string, url: string, message: string, signal: AbortSignal) => {
    await this.elicit(server, { mode: "url", elicitationId: randomUUID(), url, message }, signal);
  };

  readonly listRoots = async (
    server: string,
    signal: AbortSignal,
    info?: ClientRequestInfo,
  ): Promise<unknown> => {
    const answerer = this.#answerer(server, "roots/list");
    if (answerer.ask) {
      if (!answerer.connection.capabilities()?.roots)
        throw new ClientCannotAnswer("the client did not declare the roots capability");
      return this.#asked(answerer.ask, { method: "roots/list" } as InputRequest, signal, info);
    }
    const send = answerer.connection.roots();
    if (!send) throw new ClientCannotAnswer("the client did not declare the roots capability");
    return send(related(answerer, signal));
  };

  async #asked(
    ask: InputAsker,
    request: InputRequest,
    signal: AbortSignal,
    info: ClientRequestInfo | undefined,
  ): Promise<unknown> {
    // The upstream's own key, so the client sees the questions as the server put them.
    const answer = await ask(request, signal, info?.inputKey);
    if (answer === undefined)
      throw new ClientCannotAnswer("the client did not answer (the call was cancelled or expired)");
    return answer;
  }

  #answerer(server: string, method: string): Answerer {
    const calling = this.#inFlight.get(server)?.at(-1);
    if (calling) return calling;
    // Nobody is calling that server: only when one client is connected is it clear whom to ask.
    const connected = [...this.#attached].filter(
      ({ connection }) => connection.era() === "legacy" && connection.protocolVersion() !== undefined,
    );
    const only = connected.length === 1 ? connected[0] : undefined;
    if (only) return { connection: only.connection };
    throw new ClientCannotAnswer(
      connected.length === 0
        ? `no client is connected that can answer ${method}`
        : `no client call is in flight on this server, and ${connected.length} clients are connected: which one to ask is unknown`,
    );
  }

  #levelChanged(): void {
    const levels = [...this.#attached].flatMap((entry) =>
      entry.level ? [LOG_LEVELS.indexOf(entry.level)] : [],
    );
    if (levels.length === 0) return;
    const lowest = LOG_LEVELS[Math.min(...levels)] as LogLevel;
    if (lowest === this.#lastLevel) return;
    this.#lastLevel = lowest;
    this.#applyLevel?.(lowest);
  }
}

function related(
  answerer: Answerer,
  signal: AbortSignal,
): { signal: AbortSignal; relatedTo?: ProgressToken } {
  return { signal, ...(answerer.relatedTo !== undefined && { relatedTo: answerer.relatedTo }) };
}
