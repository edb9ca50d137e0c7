import type {
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
  Tool,
} from "@modelcontextprotocol/server";
import type { PassThroughChange, PassThroughSource } from "../../server/pass-through/source.ts";
import type { UpstreamConnection } from "../../upstream/connection.ts";
import type { CompleteParams, UpstreamFeatures } from "../../upstream/features.ts";
import type { ProgramDeps } from "../run-program.ts";
import type { UpstreamEventFanOut } from "../upstream-events.ts";
import type { LegacyTwins } from "./legacy-twins.ts";
import { protectedCall, upstreamFailure } from "./protected-call.ts";

/** The pass-through sources for each era of front-end client (see LegacyTwins), in config order. */
export interface PassThroughSources {
  /** For 2026-07-28 clients: over the gateway's connection to each server. */
  modern: readonly PassThroughSource[];
  /** For 2025-era clients: over the server's 2025-era twin while it has one, else the same connection. */
  legacy: readonly PassThroughSource[];
}

/**
 * One source per `toolscript.passThrough` server and era. A disabled server
 * exposes nothing. The sources are built once and shared by every front-end
 * session (subscriptions are counted per source).
 */
export function createPassThroughSources(
  deps: ProgramDeps,
  events: UpstreamEventFanOut,
  twins: LegacyTwins,
): PassThroughSources {
  const modern: PassThroughSource[] = [];
  const legacy: PassThroughSource[] = [];
  for (const [server, { prefix }] of Object.entries(deps.config.settings.passThrough)) {
    const config = deps.config.servers.find((candidate) => candidate.name === server);
    const features = deps.features.features(server);
    if (config === undefined || config.disabled || features === undefined) continue;
    const primary = upstreamSource(deps, events, server, prefix, deps.upstream.connection(server), features);
    modern.push(primary);
    const twin = twins.connection(server);
    const twinFeatures = twins.features(server);
    if (twin === undefined || twinFeatures === undefined) {
      legacy.push(primary);
      continue;
    }
    const second = upstreamSource(deps, twins.events, server, prefix, twin, twinFeatures);
    legacy.push(switchingSource(primary, second, () => twins.connection(server) !== undefined));
  }
  return { modern, legacy };
}

/** `second` while `useSecond()` holds, else `first`; changes of either are heard. */
function switchingSource(
  first: PassThroughSource,
  second: PassThroughSource,
  useSecond: () => boolean,
): PassThroughSource {
  const pick = () => (useSecond() ? second : first);
  return {
    server: first.server,
    prefix: first.prefix,
    capabilities: () => pick().capabilities(),
    tools: () => pick().tools(),
    callTool: (name, args, options) => pick().callTool(name, args, options),
    listPrompts: (options) => pick().listPrompts(options),
    getPrompt: (name, args, options) => pick().getPrompt(name, args, options),
    listResources: (options) => pick().listResources(options),
    listResourceTemplates: (options) => pick().listResourceTemplates(options),
    readResource: (uri, options) => pick().readResource(uri, options),
    complete: (params, options) => pick().complete(params, options),
    subscribeResource: (uri) => pick().subscribeResource(uri),
    unsubscribeResource: (uri) => pick().unsubscribeResource(uri),
    onChanged: (listener) => {
      const stops = [first.onChanged(listener), second.onChanged(listener)];
      return () => {
        for (const stop of stops) stop();
      };
    },
  };
}

/**
 * A PassThroughSource over the gateway's connection to `server`: the tools as the
 * server listed them (raw definitions), calls through the gateway's protections
 * (protected-call.ts), the rest through the connection's feature methods (its
 * limits and timeout), results and errors redacted of configured secrets.
 */
function upstreamSource(
  deps: ProgramDeps,
  events: UpstreamEventFanOut,
  server: string,
  prefix: string,
  connection: UpstreamConnection,
  features: UpstreamFeatures,
): PassThroughSource {
  const guarded = async <T>(send: () => Promise<T>): Promise<T> => {
    try {
      return deps.redactor.redactValue(await send());
    } catch (error) {
      throw upstreamFailure(deps, error);
    }
  };
  return {
    server,
    prefix,
    capabilities: () =>
      connection.state === "ready"
        ? (connection.serverCapabilities() as ServerCapabilities | undefined)
        : undefined,
    tools: () => connection.tools as unknown as readonly Tool[],
    callTool: (name, args, options) => protectedCall(deps, connection, name, args, options),
    listPrompts: ({ signal }) =>
      guarded(() => features.listPrompts({ signal })) as Promise<readonly Prompt[]>,
    getPrompt: (name, args, { signal }) =>
      guarded(() => features.getPrompt(name, args, { signal })) as Promise<GetPromptResult>,
    listResources: ({ signal }) =>
      guarded(() => features.listResources({ signal })) as Promise<readonly Resource[]>,
    listResourceTemplates: ({ signal }) =>
      guarded(() => features.listResourceTemplates({ signal })) as Promise<readonly ResourceTemplateType[]>,
    readResource: (uri, { signal }) =>
      guarded(() => features.readResource(uri, { signal })) as Promise<ReadResourceResult>,
    // Sent even when the server did not declare `completions`: it answers as it would a direct
    // client (a 2026-07-28 server may complete without declaring it; others say "method not found").
    complete: (params, { signal }) =>
      guarded(() =>
        connection.request("completion/complete", { signal }, (client, request) =>
          client.complete(params as CompleteParams, request),
        ),
      ) as Promise<CompleteResult>,
    subscribeResource: async (uri) => {
      await guarded(() => features.subscribeResource(uri));
    },
    unsubscribeResource: async (uri) => {
      await guarded(() => features.unsubscribeResource(uri));
    },
    onChanged: (listener) => onServerChanges(events, server, () => connection.state === "ready", listener),
  };
}

/**
 * The server's changes as the front end needs them: its list changes and resource
 * updates, and its going down or coming back (then every list changed: a server
 * that is down lists nothing).
 */
function onServerChanges(
  events: UpstreamEventFanOut,
  server: string,
  ready: () => boolean,
  listener: (change: PassThroughChange) => void,
): () => void {
  let wasReady = ready();
  return events.on({
    onToolsChanged: (name) => {
      if (name === server) listener({ kind: "tools" });
    },
    onListChanged: (name, kind) => {
      if (name === server) listener({ kind });
    },
    onResourceUpdated: (name, uri) => {
      if (name === server) listener({ kind: "resource-updated", uri });
    },
    onStatusChanged: (status) => {
      if (status.server !== server) return;
      const now = status.state === "ready";
      if (now === wasReady) return;
      wasReady = now;
      listener({ kind: "prompts" });
      listener({ kind: "resources" });
    },
  });
}
