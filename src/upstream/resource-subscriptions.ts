import type { Client, McpSubscription } from "@modelcontextprotocol/client";
import { messageOf } from "../errors/message-of.ts";

/**
 * What the gateway listens to on one upstream, across reconnects: list changes
 * and the resources it subscribed to. A 2026-07-28 server has no
 * `resources/subscribe`: list changes and resource updates both travel on one
 * `subscriptions/listen` stream whose filter names the subscribed URIs, so a
 * subscription change reopens that stream. A 2025 server gets
 * `resources/subscribe` per URI, sent again after each reconnect (a restarted
 * server has forgotten them).
 */
export class ResourceSubscriptions {
  readonly #uris = new Set<string>();
  readonly #report: (error: string) => void;
  #client: Client | undefined;
  #stream: McpSubscription | undefined;
  /** Serialises reopenings: the latest filter always ends up open. */
  #reopening: Promise<void> = Promise.resolve();

  constructor(report: (error: string) => void) {
    this.#report = report;
  }

  get uris(): readonly string[] {
    return [...this.#uris];
  }

  /** After each (re)connect. */
  connected(client: Client, resubscribe: (uri: string) => Promise<unknown>): void {
    this.#client = client;
    this.#stream = undefined;
    if (client.getProtocolEra() === "modern") {
      void this.#reopen(client);
      return;
    }
    for (const uri of this.#uris) {
      resubscribe(uri).catch((error: unknown) =>
        this.#report(`resources/subscribe ${uri} after reconnecting failed: ${messageOf(error)}`),
      );
    }
  }

  disconnected(): void {
    const stream = this.#stream;
    this.#client = undefined;
    this.#stream = undefined;
    void stream?.close().catch(() => {});
  }

  /** True when `client` takes subscriptions on its listen stream (then no request is sent). */
  listens(client: Client): boolean {
    return client.getProtocolEra() === "modern";
  }

  /** Adds `uri`; on a listen stream, reopens it with the new filter and resolves once acknowledged. */
  async add(uri: string): Promise<void> {
    this.#uris.add(uri);
    const client = this.#client;
    if (client && this.listens(client)) await this.#reopen(client, true);
  }

  async remove(uri: string): Promise<void> {
    if (!this.#uris.delete(uri)) return;
    const client = this.#client;
    if (client && this.listens(client)) await this.#reopen(client, true);
  }

  #reopen(client: Client, rethrow = false): Promise<void> {
    const next = this.#reopening.then(async () => {
      if (this.#client !== client) return;
      const previous = this.#stream;
      this.#stream = undefined;
      await previous?.close().catch(() => {});
      const filter = this.#filter(client);
      if (filter === undefined) return;
      try {
        const stream = await client.listen(filter);
        if (this.#client === client) this.#stream = stream;
        else await stream.close().catch(() => {});
      } catch (error) {
        // Calls still work; only later changes go unseen until the next reconnect.
        this.#report(`subscriptions/listen failed: ${messageOf(error)}`);
        if (rethrow) throw error;
      }
    });
    this.#reopening = next.catch(() => {});
    return next;
  }

  #filter(client: Client): Parameters<Client["listen"]>[0] | undefined {
    const capabilities = client.getServerCapabilities();
    const uris = capabilities?.resources?.subscribe ? [...this.#uris] : [];
    const filter = {
      ...(capabilities?.tools?.listChanged && { toolsListChanged: true }),
      ...(capabilities?.prompts?.listChanged && { promptsListChanged: true }),
      ...(capabilities?.resources?.listChanged && { resourcesListChanged: true }),
      ...(uris.length > 0 && { resourceSubscriptions: uris }),
    };
    return Object.keys(filter).length === 0 ? undefined : filter;
  }
}
