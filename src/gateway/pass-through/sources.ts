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
import type { CompleteParams, UpstreamFeatures } from "../../upstream/features.ts";
import type { ProgramDeps } from "../run-program.ts";
import type { UpstreamEventFanOut } from "../upstream-events.ts";
import { protectedCall, upstreamFailure } from "./protected-call.ts";

/**
 * One source per `toolscript.passThrough` server, in config order. A disabled
 * server exposes nothing. The sources are built once and shared by every
 * front-end session (subscriptions are counted per source).
 */
export function createPassThroughSources(
  deps: ProgramDeps,
  events: UpstreamEventFanOut,
): PassThroughSource[] {
  return Object.entries(deps.config.settings.passThrough).flatMap(([server, { prefix }]) => {
    const config = deps.config.servers.find((candidate) => candidate.name === server);
    const features = deps.features.features(server);
    if (config === undefined || config.disabled || features === undefined) return [];
    return [upstreamSource(deps, events, server, prefix, features)];
  });
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
  features: UpstreamFeatures,
): PassThroughSource {
  const connection = deps.upstream.connection(server);
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
    callTool: (name, args, options) => protectedCall(deps, server, name, args, options),
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
    complete: (params, { signal }) =>
      guarded(() => features.complete(params as CompleteParams, { signal })) as Promise<CompleteResult>,
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
