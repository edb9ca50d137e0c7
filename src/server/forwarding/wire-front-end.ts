import type { McpServer, Result, ServerContext } from "@modelcontextprotocol/server";
import type { Gateway } from "../../gateway/gateway.ts";
import { MODERN_REVISION } from "../../gateway/pass-through/legacy-twins.ts";
import { approverFrom, roundsOf } from "../approval-rounds.ts";
import type { Caller } from "../caller.ts";
import { type ClientConnection, isModernRequest, trackKey } from "../client-connection.ts";
import { elicitationApprover } from "../elicit-approval.ts";
import { extendFrontEnd } from "../front-end-extensions.ts";
import { type PassThroughAround, registerPassThrough } from "../pass-through/index.ts";
import { ClientRouter } from "./client-router.ts";

const routers = new WeakMap<Gateway, ClientRouter>();

/** The router `wireFrontEnd` set up for the gateway; undefined before. */
export function routerOf(gateway: Gateway): ClientRouter | undefined {
  return routers.get(gateway);
}

/**
 * Connects the gateway's front ends (stdio, 2025-era HTTP sessions, 2026-07-28
 * HTTP requests: every server createMcpServer makes from now on) to its upstreams:
 *
 * - the `toolscript.passThrough` servers, offered beside the meta-tools;
 * - what upstreams ask (sampling, elicitation, roots), routed to the right client
 *   (ClientRouter); the gateway's `clientRequests` is that router when the gateway
 *   was made to serve (then the hooks are declared to upstreams), else one is made
 *   here and only logs and pass-through are forwarded;
 * - upstream log messages, to the clients that asked for their level, and the
 *   least severe level any client set with `logging/setLevel`, asked of upstreams.
 *
 * Idempotent: the serve functions call it; the router is returned.
 */
export function wireFrontEnd(gateway: Gateway): ClientRouter {
  const existing = routers.get(gateway);
  if (existing) return existing;
  const router = gateway.clientRequests instanceof ClientRouter ? gateway.clientRequests : new ClientRouter();
  routers.set(gateway, router);
  router.onLevel((level) => {
    void gateway.setLoggingLevel(level).catch(() => {});
  });
  gateway.upstreamEvents.on({ onLog: (server, params) => router.log(server, gateway.redact(params)) });
  const sources = gateway.passThroughSources();
  extendFrontEnd(gateway, (server, connection, caller) => {
    const attached = router.attach(connection);
    forwardSetLevel(server, (level) => attached.setLevel(level));
    if (sources.modern.length > 0) {
      // What a direct connection in the client's own era would show (LegacyTwins); the era is
      // known once the client's first request arrives, before any list is built.
      const modern = () => (connection.protocolVersion() ?? "") >= MODERN_REVISION;
      registerPassThrough(server, () => (modern() ? sources.modern : sources.legacy), {
        around: aroundCall(gateway, router, server, connection, caller),
        listenTo: [...sources.modern, ...sources.legacy],
      });
    }
    const previousOnClose = server.server.onclose;
    server.server.onclose = () => {
      attached.detach();
      previousOnClose?.();
    };
  });
  return router;
}

/**
 * A forwarded request is tracked on its connection (log messages and progress ride
 * its stream), in flight on its server (that server's questions come to this client),
 * and for 2026-07-28 clients a round of the paused-call table: it may answer an
 * input-required result and resume when the client retries with `requestState`.
 */
function aroundCall(
  gateway: Gateway,
  router: ClientRouter,
  server: McpServer,
  connection: ClientConnection,
  caller: Caller,
): PassThroughAround {
  const rounds = roundsOf(gateway);
  return async (ctx: ServerContext, upstream: string, run): Promise<Result> => {
    const untrack = connection.track(ctx);
    try {
      const state = ctx.mcpReq.requestState<string>();
      if (typeof state === "string") return await rounds.resume(state, ctx, caller.client);
      const session = caller.defaultSession(ctx);
      if (!isModernRequest(ctx)) {
        const end = router.begin(upstream, { connection, relatedTo: trackKey(ctx) });
        try {
          const approver = elicitationApprover(server, ctx.mcpReq.id);
          return await run({
            signal: ctx.mcpReq.signal,
            caller: { client: caller.client, session, approver },
          });
        } finally {
          end();
        }
      }
      const canElicit = connection.capabilities()?.elicitation !== undefined;
      return await rounds.start(
        async (ask, signal) => {
          const end = router.begin(upstream, { connection, ask });
          try {
            const approver = canElicit ? approverFrom(ask) : undefined;
            const capabilities = connection.capabilities();
            return await run({ signal, caller: { client: caller.client, session, approver, capabilities } });
          } finally {
            end();
          }
        },
        ctx,
        caller.client,
      );
    } finally {
      untrack();
    }
  };
}

/** Hears each `logging/setLevel` the server answers (its own handler still applies the level). */
function forwardSetLevel(server: McpServer, onLevel: (level: string) => void): void {
  const low = server.server as unknown as {
    _getRequestHandler?: (method: string) => ((request: never, ctx: never) => Promise<Result>) | undefined;
  };
  const previous = low._getRequestHandler?.call(server.server, "logging/setLevel");
  if (previous === undefined) return;
  server.server.setRequestHandler("logging/setLevel", async (request, ctx) => {
    const result = await previous(request as never, ctx as never);
    onLevel(request.params.level);
    return result;
  });
}
