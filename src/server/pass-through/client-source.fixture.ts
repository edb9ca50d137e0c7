import type { Client } from "@modelcontextprotocol/client";
import type { PassThroughChange, PassThroughSource } from "./source.ts";

/** Collects every page of a paginated list. */
async function allPages<T>(
  fetch: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const result = await fetch(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return items;
}

export interface ClientSourceOptions {
  /** Stands in for the gateway's policy hook: a refusal thrown here must reach the client as a tool error. */
  beforeCall?: (name: string, args: Record<string, unknown>) => void;
}

/**
 * A PassThroughSource over a 2.x SDK Client connected to a real upstream: what the
 * gateway's adapter over its upstream connection does, minus its protections.
 */
export function clientSource(
  server: string,
  prefix: string,
  client: Client,
  options: ClientSourceOptions = {},
): PassThroughSource & { emit(change: PassThroughChange): void; down: boolean } {
  const listeners = new Set<(change: PassThroughChange) => void>();
  const emit = (change: PassThroughChange) => {
    for (const listener of listeners) listener(change);
  };
  client.setNotificationHandler("notifications/tools/list_changed", () => emit({ kind: "tools" }));
  client.setNotificationHandler("notifications/prompts/list_changed", () => emit({ kind: "prompts" }));
  client.setNotificationHandler("notifications/resources/list_changed", () => emit({ kind: "resources" }));
  client.setNotificationHandler("notifications/resources/updated", (notification) =>
    emit({ kind: "resource-updated", uri: notification.params.uri }),
  );
  const source = {
    server,
    prefix,
    down: false,
    emit,
    capabilities: () => (source.down ? undefined : client.getServerCapabilities()),
    tools: () =>
      allPages(async (cursor) => {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        return { items: page.tools, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      }),
    callTool: async (
      name: string,
      args: Record<string, unknown>,
      call: Parameters<PassThroughSource["callTool"]>[2],
    ) => {
      options.beforeCall?.(name, args);
      return client.callTool(
        { name, arguments: args },
        {
          signal: call.signal,
          ...(call.onProgress === undefined ? {} : { onprogress: call.onProgress }),
        },
      );
    },
    listPrompts: () =>
      allPages(async (cursor) => {
        const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
        return { items: page.prompts, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      }),
    getPrompt: (
      name: string,
      args: Record<string, string> | undefined,
      { signal }: { signal: AbortSignal },
    ) => client.getPrompt({ name, ...(args === undefined ? {} : { arguments: args }) }, { signal }),
    listResources: () =>
      allPages(async (cursor) => {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        return { items: page.resources, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      }),
    listResourceTemplates: () =>
      allPages(async (cursor) => {
        const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor });
        return { items: page.resourceTemplates, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      }),
    readResource: (uri: string, { signal }: { signal: AbortSignal }) =>
      client.readResource({ uri }, { signal }),
    complete: (params: Parameters<PassThroughSource["complete"]>[0], { signal }: { signal: AbortSignal }) =>
      client.complete(params, { signal }),
    subscribeResource: async (uri: string) => {
      await client.subscribeResource({ uri });
    },
    unsubscribeResource: async (uri: string) => {
      await client.unsubscribeResource({ uri });
    },
    onChanged: (listener: (change: PassThroughChange) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return source as PassThroughSource & { emit(change: PassThroughChange): void; down: boolean };
}
