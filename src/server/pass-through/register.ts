import type { CallToolResult, McpServer, Result, Server, ServerContext } from "@modelcontextprotocol/server";

import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  UriTemplate,
} from "@modelcontextprotocol/server";
import { type ForwardedRequest, traceForwardedRequest } from "../../ops/tracing/forwarded-span.ts";
import { clientTraceOf } from "../client-trace.ts";
import { FAMILIES, type Family, type FamilyItems, METHODS, type StoredHandler } from "./families.ts";
import type { FamilySpec, Merged } from "./merge.ts";
import { mergeFamily, OnceWarner } from "./merge.ts";
import {
  PASS_THROUGH_CAPABILITIES,
  type PassThroughAround,
  type PassThroughOptions,
  type PassThroughRegistration,
  type SourcePicker,
} from "./options.ts";
import { DEFAULT_PAGE_SIZE, page } from "./paginate.ts";
import type { PassThroughChange, PassThroughRequestOptions, PassThroughSource } from "./source.ts";
import { SessionSubscriptions } from "./subscriptions.ts";
import { toolCallFailure, toProtocolError } from "./upstream-errors.ts";

const MAX_LOCAL_PAGES = 100;

/** What a forwarded request names, for its span. */
type Target = Pick<ForwardedRequest, "tool" | "prompt" | "uri">;

/**
 * Offers `sources` (the `toolscript.passThrough` servers, in config order) on a 2.x
 * front end beside what is already registered on it (the meta-tools, the catalog
 * resources). Call it after those registrations and before `connect`.
 *
 * It replaces the low-level handlers of tools, prompts, resources and completions with
 * merging ones that delegate the gateway's own items to the handlers they replaced
 * (McpServer's), so upstream items never pass through McpServer's schema machinery:
 * schemas, `_meta` and results reach the client as the upstream wrote them.
 */
export function registerPassThrough(
  server: McpServer | Server,
  sources: readonly PassThroughSource[] | SourcePicker,
  options: PassThroughOptions = {},
): PassThroughRegistration {
  const low: Server = "server" in server ? server.server : server;
  const picker = typeof sources === "function" ? sources : undefined;
  const heard = picker ? (options.listenTo ?? []) : (sources as readonly PassThroughSource[]);
  if (!picker && heard.length === 0) return { dispose: async () => {} };
  if (low.transport !== undefined) {
    throw new Error("registerPassThrough: call it before connect (capabilities are declared at initialize)");
  }
  const access = low as unknown as { _getRequestHandler?: (method: string) => StoredHandler | undefined };
  if (typeof access._getRequestHandler !== "function") {
    throw new Error(
      "registerPassThrough: this @modelcontextprotocol/server has no _getRequestHandler to delegate to",
    );
  }
  const base = new Map<string, StoredHandler>();
  for (const method of METHODS) {
    const handler = access._getRequestHandler.call(low, method);
    if (handler !== undefined) base.set(method, handler);
  }
  low.registerCapabilities(PASS_THROUGH_CAPABILITIES);
  // Through McpServer's own send*ListChanged when there is one: the front end guards those
  // (never before a 2025-era client initialized; listen streams for 2026-07-28).
  const listChanged: ListChangedSender =
    "server" in server
      ? {
          tools: async () => server.sendToolListChanged(),
          prompts: async () => server.sendPromptListChanged(),
          resources: async () => server.sendResourceListChanged(),
        }
      : {
          tools: () => low.sendToolListChanged(),
          prompts: () => low.sendPromptListChanged(),
          resources: () => low.sendResourceListChanged(),
        };
  const front = new PassThroughFrontEnd(low, picker ?? (() => heard), heard, base, options, listChanged);
  front.install();
  const previousOnClose = low.onclose;
  low.onclose = () => {
    previousOnClose?.();
    void front.dispose();
  };
  return { dispose: () => front.dispose() };
}

interface ListChangedSender {
  tools(): Promise<void>;
  prompts(): Promise<void>;
  resources(): Promise<void>;
}

class PassThroughFrontEnd {
  private readonly warner: OnceWarner;
  private readonly pageSize: number;
  private readonly indexes: { [F in Family]?: Promise<Merged<FamilyItems[F]>> } = {};
  private readonly compiledTemplates = new Map<string, UriTemplate | null>();
  private readonly subscriptions = new SessionSubscriptions();
  private readonly stopListening: Array<() => void>;
  private readonly around: PassThroughAround;
  private picked?: readonly PassThroughSource[];
  private disposed?: Promise<void>;

  constructor(
    private readonly low: Server,
    private readonly pick: SourcePicker,
    heard: readonly PassThroughSource[],
    private readonly base: ReadonlyMap<string, StoredHandler>,
    options: PassThroughOptions,
    private readonly listChanged: ListChangedSender,
  ) {
    this.warner = new OnceWarner(options.warn ?? ((message) => process.stderr.write(`${message}\n`)));
    this.pageSize = Math.max(1, options.pageSize ?? DEFAULT_PAGE_SIZE);
    this.around = options.around ?? ((ctx, _server, run) => run({ signal: ctx.mcpReq.signal }));
    this.stopListening = [...new Set(heard)].map((source) =>
      source.onChanged((change) => this.onChanged(change)),
    );
  }

  install(): void {
    const low = this.low;
    for (const family of ["tools", "prompts", "resources", "templates"] as const) {
      const { list, field } = FAMILIES[family];
      low.setRequestHandler(list as "tools/list", async (request, ctx) => {
        const merged = await this.index(family, ctx, true);
        const { items, nextCursor } = page<unknown>(merged.items, request.params?.cursor, this.pageSize);
        return { [field]: items, ...(nextCursor === undefined ? {} : { nextCursor }) } as never;
      });
    }

    low.setRequestHandler("tools/call", async (request, ctx) => {
      const owner = await this.owner("tools", request.params.name, ctx);
      if (owner === undefined)
        return (await this.delegate("tools/call", request, ctx, "Tool")) as CallToolResult;
      const progressToken = request.params._meta?.progressToken;
      const { source, upstream } = owner;
      const target = { tool: request.params.name };
      return (await this.traced(ctx, source.server, target, () =>
        this.around(ctx, source.server, async (extra) => {
          try {
            return await source.callTool(upstream.name, request.params.arguments ?? {}, {
              ...extra,
              ...(progressToken === undefined
                ? {}
                : {
                    onProgress: (progress) => {
                      void ctx.mcpReq
                        .notify({ method: "notifications/progress", params: { ...progress, progressToken } })
                        .catch(() => {});
                    },
                  }),
            });
          } catch (error) {
            return toolCallFailure(error, source.server);
          }
        }),
      )) as CallToolResult;
    });

    low.setRequestHandler("prompts/get", async (request, ctx) => {
      const owner = await this.owner("prompts", request.params.name, ctx);
      if (owner === undefined) return this.delegate("prompts/get", request, ctx, "Prompt") as never;
      return this.forward(ctx, owner.source, { prompt: request.params.name }, (extra) =>
        owner.source.getPrompt(owner.upstream.name, request.params.arguments, extra),
      ) as never;
    });

    low.setRequestHandler("resources/read", async (request, ctx) => {
      const source = await this.resourceOwner(request.params.uri, ctx);
      if (source === undefined) {
        if (this.base.has("resources/read"))
          return this.delegate("resources/read", request, ctx, "Resource") as never;
        throw new ResourceNotFoundError(request.params.uri);
      }
      return this.forward(ctx, source, { uri: request.params.uri }, (extra) =>
        source.readResource(request.params.uri, extra),
      ) as never;
    });

    low.setRequestHandler("resources/subscribe", async (request, ctx) => {
      const source = await this.resourceOwner(request.params.uri, ctx);
      if (source === undefined)
        return this.delegate("resources/subscribe", request, ctx, "Resource") as never;
      try {
        await this.subscriptions.subscribe(source, request.params.uri);
      } catch (error) {
        throw toProtocolError(error, source.server);
      }
      return {};
    });

    low.setRequestHandler("resources/unsubscribe", async (request, ctx) => {
      if (!this.subscriptions.has(request.params.uri)) {
        return this.base.has("resources/unsubscribe")
          ? (this.delegate("resources/unsubscribe", request, ctx, "Resource") as never)
          : {};
      }
      try {
        await this.subscriptions.unsubscribe(request.params.uri);
      } catch (error) {
        throw toProtocolError(error, "upstream");
      }
      return {};
    });

    low.setRequestHandler("completion/complete", async (request, ctx) => {
      const ref = request.params.ref;
      if (ref.type === "ref/prompt") {
        const owner = await this.owner("prompts", ref.name, ctx);
        if (owner !== undefined) {
          const params = { ...request.params, ref: { ...ref, name: owner.upstream.name } };
          return this.forward(ctx, owner.source, {}, (extra) =>
            owner.source.complete(params, extra),
          ) as never;
        }
      } else if (ref.type === "ref/resource") {
        const owner = await this.owner("templates", ref.uri, ctx);
        if (owner !== undefined) {
          return this.forward(ctx, owner.source, {}, (extra) =>
            owner.source.complete(request.params, extra),
          ) as never;
        }
      }
      if (this.base.has("completion/complete"))
        return this.delegate("completion/complete", request, ctx, "Completion reference") as never;
      const what =
        ref.type === "ref/prompt" ? `Prompt ${ref.name}` : `Resource template ${"uri" in ref ? ref.uri : ""}`;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${what} not found`);
    });
  }

  dispose(): Promise<void> {
    this.disposed ??= (async () => {
      for (const stop of this.stopListening) stop();
      for (const error of await this.subscriptions.clear()) {
        this.warner.warn(`pass-through: unsubscribing at session end failed: ${String(error)}`);
      }
    })();
    return this.disposed;
  }

  private sources(): readonly PassThroughSource[] {
    this.picked ??= this.pick();
    return this.picked;
  }

  /** Runs one forwarded request (through `around`), mapping the upstream's failure to a front-end error. */
  private forward(
    ctx: ServerContext,
    source: PassThroughSource,
    target: Target,
    run: (extra: PassThroughRequestOptions) => Promise<Result>,
  ): Promise<Result> {
    return this.traced(ctx, source.server, target, () =>
      this.around(ctx, source.server, async (extra) => {
        try {
          return await run(extra);
        } catch (error) {
          throw toProtocolError(error, source.server);
        }
      }),
    );
  }

  /** In the request's span, the child of the client's trace context: the upstream request carries it on. */
  private traced(ctx: ServerContext, server: string, target: Target, run: () => Promise<Result>) {
    return traceForwardedRequest(
      { method: ctx.mcpReq.method, server, ...target, trace: clientTraceOf(ctx) },
      run,
    );
  }

  /** Hands a request the pass-through does not own to the handler it replaced (McpServer's), if any. */
  private async delegate(
    method: (typeof METHODS)[number],
    request: { method: string; params?: unknown },
    ctx: ServerContext,
    what: string,
  ): Promise<Result> {
    const handler = this.base.get(method);
    const params = (request.params ?? {}) as { name?: unknown; uri?: unknown };
    if (handler === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${what} ${String(params.name ?? params.uri ?? "")} not found`,
      );
    }
    return handler({ jsonrpc: "2.0", id: ctx.mcpReq.id, method, params: request.params as never }, ctx);
  }

  private async owner<F extends Family>(family: F, key: string, ctx: ServerContext) {
    const cached = await this.index(family, ctx, false);
    const hit = cached.owners.get(key);
    if (hit !== undefined || this.isLocal(cached, family, key)) return hit;
    return (await this.index(family, ctx, true)).owners.get(key);
  }

  private isLocal<F extends Family>(merged: Merged<FamilyItems[F]>, family: F, key: string): boolean {
    const spec = FAMILIES[family].spec as FamilySpec<FamilyItems[F]>;
    return merged.local.some((item) => spec.key(item) === key);
  }

  /** The server whose listed resource, or else whose template, covers `uri`; undefined for the gateway's own. */
  private async resourceOwner(uri: string, ctx: ServerContext): Promise<PassThroughSource | undefined> {
    for (const fresh of [false, true]) {
      const resources = await this.index("resources", ctx, fresh);
      const listed = resources.owners.get(uri);
      if (listed !== undefined) return listed.source;
      if (this.isLocal(resources, "resources", uri)) return undefined;
      const templates = await this.index("templates", ctx, fresh);
      if (templates.local.some((template) => this.matches(template.uriTemplate, uri))) return undefined;
      for (const [template, owner] of templates.owners) {
        if (this.matches(template, uri)) return owner.source;
      }
    }
    return undefined;
  }

  private matches(template: string, uri: string): boolean {
    let compiled = this.compiledTemplates.get(template);
    if (compiled === undefined) {
      try {
        compiled = new UriTemplate(template);
      } catch {
        compiled = null;
      }
      this.compiledTemplates.set(template, compiled);
    }
    return compiled?.match(uri) != null;
  }

  /** The merged list of one family: rebuilt when `fresh` (every list request), else the last one. */
  private index<F extends Family>(
    family: F,
    ctx: ServerContext,
    fresh: boolean,
  ): Promise<Merged<FamilyItems[F]>> {
    const cached = this.indexes[family] as Promise<Merged<FamilyItems[F]>> | undefined;
    if (cached !== undefined && !fresh) return cached;
    const built = this.build(family, ctx);
    (this.indexes as Record<Family, Promise<unknown> | undefined>)[family] = built;
    // A failed build must not stick: the next request tries again.
    built.catch(() => {
      if (this.indexes[family] === (built as unknown)) delete this.indexes[family];
    });
    return built;
  }

  private async build<F extends Family>(family: F, ctx: ServerContext): Promise<Merged<FamilyItems[F]>> {
    const { list, field, spec } = FAMILIES[family] as {
      list: string;
      field: string;
      spec: FamilySpec<FamilyItems[F]>;
    };
    const [local, remote] = await Promise.all([
      this.localItems<FamilyItems[F]>(list, field, ctx),
      Promise.all(
        this.sources().map(async (source) => ({
          source,
          items: await this.upstreamItems(family, source, ctx),
        })),
      ),
    ]);
    return mergeFamily(spec, local, remote as never, this.warner);
  }

  /** Every page of the replaced handler's list (the gateway's own items). */
  private async localItems<T>(method: string, field: string, ctx: ServerContext): Promise<T[]> {
    const handler = this.base.get(method);
    if (handler === undefined) return [];
    const items: T[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_LOCAL_PAGES; pages++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = (await handler({ jsonrpc: "2.0", id: ctx.mcpReq.id, method, params }, ctx)) as Record<
        string,
        unknown
      >;
      items.push(...((result[field] as T[] | undefined) ?? []));
      cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    return items;
  }

  private async upstreamItems<F extends Family>(
    family: F,
    source: PassThroughSource,
    ctx: ServerContext,
  ): Promise<readonly FamilyItems[F][]> {
    const capabilities = source.capabilities();
    // Not connected: nothing to offer until it comes back (the source then says "changed").
    if (capabilities === undefined) return [];
    const signal = ctx.mcpReq.signal;
    try {
      switch (family) {
        case "tools":
          return capabilities.tools ? ((await source.tools()) as FamilyItems[F][]) : [];
        case "prompts":
          return capabilities.prompts ? ((await source.listPrompts({ signal })) as FamilyItems[F][]) : [];
        case "resources":
          return capabilities.resources ? ((await source.listResources({ signal })) as FamilyItems[F][]) : [];
        default:
          return capabilities.resources
            ? ((await source.listResourceTemplates({ signal })) as FamilyItems[F][])
            : [];
      }
    } catch (error) {
      this.warner.warn(
        `pass-through: cannot list the ${FAMILIES[family].spec.label}s of server "${source.server}": ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    }
  }

  private onChanged(change: PassThroughChange): void {
    // Before connect or after close there is no one to tell; the lists are rebuilt on the next request anyway.
    const connected = this.low.transport !== undefined;
    const quietly = (send: () => Promise<void>) => {
      if (connected) void send().catch(() => {});
    };
    switch (change.kind) {
      case "tools":
        delete this.indexes.tools;
        quietly(() => this.listChanged.tools());
        return;
      case "prompts":
        delete this.indexes.prompts;
        quietly(() => this.listChanged.prompts());
        return;
      case "resources":
        delete this.indexes.resources;
        delete this.indexes.templates;
        quietly(() => this.listChanged.resources());
        return;
      case "resource-updated":
        if (this.subscriptions.has(change.uri))
          quietly(() => this.low.sendResourceUpdated({ uri: change.uri }));
        return;
    }
  }
}
