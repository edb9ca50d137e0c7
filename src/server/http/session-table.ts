import type { ServerResponse } from "node:http";
import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { McpServer } from "@modelcontextprotocol/server";

export interface HttpSession {
  /** The client (by token) that created it; only that client may use it. */
  readonly client: string;
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly server: McpServer;
  lastSeen: number;
  /** POST/DELETE requests in progress (e.g. a tools/call): such a session is not idle. */
  busy: number;
}

export type RoomOutcome = { ok: true; evict?: HttpSession & { id: string } } | { ok: false; open: number };

/**
 * The open MCP sessions of an HTTP server, by id and by client. A session is
 * found only by the client that owns it: to any other it does not exist.
 */
export class HttpSessionTable {
  readonly #sessions = new Map<string, HttpSession>();
  /** Initializations in progress per client, counted against its cap before they have an id. */
  readonly #starting = new Map<string, number>();

  get size(): number {
    return this.#sessions.size;
  }

  /** The session `id` if `client` owns it; undefined for unknown ids and other clients' sessions alike. */
  get(id: string, client: string): HttpSession | undefined {
    const session = this.#sessions.get(id);
    return session?.client === client ? session : undefined;
  }

  add(id: string, session: HttpSession): void {
    this.#sessions.set(id, session);
  }

  /** Removes and returns the session (whoever owns it). */
  take(id: string): HttpSession | undefined {
    const session = this.#sessions.get(id);
    this.#sessions.delete(id);
    return session;
  }

  ids(): string[] {
    return [...this.#sessions.keys()];
  }

  /** Sessions nobody used for `idleMs` and with nothing in progress. */
  idleSince(now: number, idleMs: number): string[] {
    const ids: string[] = [];
    for (const [id, session] of this.#sessions)
      if (session.busy === 0 && now - session.lastSeen > idleMs) ids.push(id);
    return ids;
  }

  /** Counts one initialization of `client` until `done` is called. */
  starting(client: string): () => void {
    this.#starting.set(client, (this.#starting.get(client) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.#starting.get(client) ?? 1) - 1;
      if (left > 0) this.#starting.set(client, left);
      else this.#starting.delete(client);
    };
  }

  /**
   * Room for one more session of `client` under `cap`: fine when under it;
   * else its least recently used idle session, to close; else a refusal.
   */
  makeRoom(client: string, cap: number): RoomOutcome {
    let open = this.#starting.get(client) ?? 0;
    let oldest: (HttpSession & { id: string }) | undefined;
    for (const [id, session] of this.#sessions) {
      if (session.client !== client) continue;
      open++;
      if (session.busy === 0 && (!oldest || session.lastSeen < oldest.lastSeen)) oldest = { ...session, id };
    }
    if (open < cap) return { ok: true };
    return oldest ? { ok: true, evict: oldest } : { ok: false, open };
  }

  /** Marks the session used now and busy until `response` closes. */
  use(session: HttpSession, response: ServerResponse): void {
    session.lastSeen = Date.now();
    session.busy++;
    response.once("close", () => {
      session.busy--;
      session.lastSeen = Date.now();
    });
  }
}
