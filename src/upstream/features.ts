/**
 * What an upstream server offers besides tools: resources, resource
 * templates, prompts, completions and resource subscriptions. Thin methods on
 * one connection; each request goes through the connection's readiness check,
 * rate limit, concurrency cap and timeout (UpstreamConnection.request), as a
 * tool call does.
 *
 * Written against a small structural interface of the SDK client, not its
 * class: the 1.x and the 2.x `Client` have these very method names, so this
 * file works with either.
 */
import type { CallOptions } from "./connection.ts";
import { UpstreamError } from "./errors.ts";

/** Per-request options the SDK client takes (both majors). */
export interface FeatureRequestOptions {
  timeout: number;
  signal: AbortSignal;
}

/** One page of a list answer. */
interface Page {
  nextCursor?: string | undefined;
}

/** The part of an SDK client these methods use. Answers are wire data: read through `unknown`. */
export interface FeatureClient {
  listResources(
    params?: { cursor?: string },
    options?: FeatureRequestOptions,
  ): Promise<Page & { resources: readonly unknown[] }>;
  listResourceTemplates(
    params?: { cursor?: string },
    options?: FeatureRequestOptions,
  ): Promise<Page & { resourceTemplates: readonly unknown[] }>;
  readResource(
    params: { uri: string },
    options?: FeatureRequestOptions,
  ): Promise<{ contents: readonly unknown[] }>;
  listPrompts(
    params?: { cursor?: string },
    options?: FeatureRequestOptions,
  ): Promise<Page & { prompts: readonly unknown[] }>;
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: FeatureRequestOptions,
  ): Promise<{ description?: string | undefined; messages: readonly unknown[] }>;
  complete(params: CompleteParams, options?: FeatureRequestOptions): Promise<{ completion: unknown }>;
  subscribeResource(params: { uri: string }, options?: FeatureRequestOptions): Promise<unknown>;
  unsubscribeResource(params: { uri: string }, options?: FeatureRequestOptions): Promise<unknown>;
}

/** `completion/complete` parameters (a prompt's or a resource template's argument). */
export interface CompleteParams {
  ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

/** The capabilities a server declared in `initialize` that these methods depend on. */
export interface FeatureCapabilities {
  resources?: { subscribe?: boolean; listChanged?: boolean } | undefined;
  prompts?: { listChanged?: boolean } | undefined;
  completions?: object | undefined;
  logging?: object | undefined;
}

/** The connection side these methods need: UpstreamConnection's hook. */
export interface FeatureConnection {
  readonly name: string;
  serverCapabilities(): FeatureCapabilities | undefined;
  /** `traceMeta`: the `_meta` entries carrying the trace context, to send in the request's params. */
  request<T>(
    label: string,
    options: CallOptions,
    send: (client: FeatureClient, request: FeatureRequestOptions, traceMeta?: TraceMeta) => Promise<T>,
  ): Promise<T>;
  /** Subscriptions outlive reconnects and, on 2026-07-28 servers, ride the listen stream: the connection keeps them. */
  subscribeResource(uri: string, options: CallOptions): Promise<void>;
  unsubscribeResource(uri: string, options: CallOptions): Promise<void>;
}

/** `_meta` entries carrying the trace context (`traceparent`, `tracestate`); undefined when not tracing. */
type TraceMeta = Record<string, string> | undefined;

/** `params` with the trace context in `_meta` (MCP's place for it), as they are without one. */
function withMeta<P extends object>(params: P, traceMeta: TraceMeta): P {
  return traceMeta === undefined ? params : { ...params, _meta: traceMeta };
}

/** At most this many pages of one list: a server that keeps answering with a cursor does not hold a call forever. */
const MAX_PAGES = 100;

export type Capability = "resources" | "prompts" | "completions";

/** The feature methods of one upstream connection. */
export class UpstreamFeatures {
  readonly #connection: FeatureConnection;

  constructor(connection: FeatureConnection) {
    this.#connection = connection;
  }

  get server(): string {
    return this.#connection.name;
  }

  /** What the server declared; undefined while it is not connected. */
  capabilities(): FeatureCapabilities | undefined {
    return this.#connection.serverCapabilities();
  }

  /** Whether the server declared `capability` (false while not connected). */
  offers(capability: Capability): boolean {
    return this.capabilities()?.[capability] !== undefined;
  }

  /** Every resource the server lists, all pages. */
  listResources(options: CallOptions = {}): Promise<unknown[]> {
    return this.#allPages("resources/list", "resources", options, (client, params, request) =>
      client.listResources(params, request).then((page) => ({
        items: page.resources,
        nextCursor: page.nextCursor,
      })),
    );
  }

  /** Every resource template the server lists, all pages. */
  listResourceTemplates(options: CallOptions = {}): Promise<unknown[]> {
    return this.#allPages("resources/templates/list", "resources", options, (client, params, request) =>
      client.listResourceTemplates(params, request).then((page) => ({
        items: page.resourceTemplates,
        nextCursor: page.nextCursor,
      })),
    );
  }

  /** `resources/read`: the resource's contents (text or base64 `blob` entries). */
  readResource(uri: string, options: CallOptions = {}): Promise<{ contents: readonly unknown[] }> {
    this.#require("resources", `resources/read ${uri}`);
    return this.#connection.request(`resources/read ${uri}`, options, (client, request, traceMeta) =>
      client.readResource(withMeta({ uri }, traceMeta), request),
    );
  }

  /** Every prompt the server lists, all pages. */
  listPrompts(options: CallOptions = {}): Promise<unknown[]> {
    return this.#allPages("prompts/list", "prompts", options, (client, params, request) =>
      client.listPrompts(params, request).then((page) => ({
        items: page.prompts,
        nextCursor: page.nextCursor,
      })),
    );
  }

  /** `prompts/get`: the prompt's messages with `args` filled in. */
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: CallOptions = {},
  ): Promise<{ description?: string | undefined; messages: readonly unknown[] }> {
    this.#require("prompts", `prompts/get ${name}`);
    return this.#connection.request(`prompts/get ${name}`, options, (client, request, traceMeta) =>
      client.getPrompt(
        withMeta(args === undefined ? { name } : { name, arguments: args }, traceMeta),
        request,
      ),
    );
  }

  /** `completion/complete` for a prompt's or a resource template's argument. */
  complete(params: CompleteParams, options: CallOptions = {}): Promise<{ completion: unknown }> {
    this.#require("completions", "completion/complete");
    return this.#connection.request("completion/complete", options, (client, request, traceMeta) =>
      client.complete(withMeta(params, traceMeta), request),
    );
  }

  subscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    if (this.capabilities()?.resources?.subscribe !== true) {
      throw this.#unsupported(`resources/subscribe ${uri}`, "resource subscriptions");
    }
    return this.#connection.subscribeResource(uri, options);
  }

  unsubscribeResource(uri: string, options: CallOptions = {}): Promise<void> {
    return this.#connection.unsubscribeResource(uri, options);
  }

  async #allPages(
    label: string,
    capability: Capability,
    options: CallOptions,
    page: (
      client: FeatureClient,
      params: { cursor?: string },
      request: FeatureRequestOptions,
    ) => Promise<{ items: readonly unknown[]; nextCursor?: string | undefined }>,
  ): Promise<unknown[]> {
    this.#require(capability, label);
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const answer = await this.#connection.request(label, options, (client, request, traceMeta) =>
        page(client, withMeta(cursor === undefined ? {} : { cursor }, traceMeta), request),
      );
      items.push(...answer.items);
      if (typeof answer.nextCursor !== "string" || answer.nextCursor === cursor) return items;
      cursor = answer.nextCursor;
    }
    return items;
  }

  /**
   * A server connected without declaring the capability is not asked (it would answer
   * "method not found"); one not connected yet is, so the request says why it cannot be sent.
   */
  #require(capability: Capability, label: string): void {
    const declared = this.capabilities();
    if (declared !== undefined && declared[capability] === undefined) {
      throw this.#unsupported(label, capability);
    }
  }

  #unsupported(label: string, what: string): UpstreamError {
    return new UpstreamError(
      "upstream.call_failed",
      `server "${this.server}" does not offer ${what} (its initialize answer declares no such capability)`,
      { server: this.server, request: label, unsupported: what },
    );
  }
}
