import {
  type Client,
  type ClientCapabilities,
  INTERNAL_ERROR,
  METHOD_NOT_FOUND,
  ProtocolError,
} from "@modelcontextprotocol/client";
import { messageOf } from "../errors/message-of.ts";
import type { ClientRequestHooks, ClientRequestInfo, LogLevel, UpstreamEvents } from "./types.ts";

/** Severity order of MCP log levels (RFC 5424), least severe first. */
export const LOG_LEVELS: readonly LogLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}

/** True when a message at `level` passes a threshold (no threshold: everything passes). */
export function atOrAbove(level: unknown, threshold: LogLevel | undefined): boolean {
  if (threshold === undefined) return true;
  // A level the spec does not name is forwarded rather than lost.
  if (!isLogLevel(level)) return true;
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/**
 * What the gateway declares to an upstream: only the server→client requests
 * its hooks can answer, so a server never sends one that is bound to fail.
 */
export function clientCapabilities(hooks: ClientRequestHooks | undefined): ClientCapabilities {
  return {
    ...(hooks?.sample && { sampling: {} }),
    ...(hooks?.elicit && { elicitation: { form: {}, url: {} } }),
    ...(hooks?.listRoots && { roots: { listChanged: true } }),
  };
}

/**
 * Registers on `client` the handlers that pass an upstream's notifications
 * (log messages, list changes, resource updates) to `events` and its
 * requests (sampling, elicitation, roots; in 2026-07-28 also the input
 * requests of an `input_required` result, which the SDK routes to the same
 * handlers) to `hooks`. A hook that fails becomes a JSON-RPC error naming the
 * server and the reason: the upstream never waits for an answer that cannot come.
 */
export function registerForwarding(
  client: Client,
  server: string,
  events: UpstreamEvents,
  hooks: ClientRequestHooks | undefined,
  logThreshold: () => LogLevel | undefined,
): void {
  client.setNotificationHandler("notifications/message", (notification) => {
    const params: unknown = notification.params;
    const level = (params as { level?: unknown } | undefined)?.level;
    if (atOrAbove(level, logThreshold())) events.onLog?.(server, params);
  });
  client.setNotificationHandler("notifications/prompts/list_changed", () => {
    events.onListChanged?.(server, "prompts");
  });
  client.setNotificationHandler("notifications/resources/list_changed", () => {
    events.onListChanged?.(server, "resources");
  });
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    const uri: unknown = notification.params?.uri;
    if (typeof uri === "string") events.onResourceUpdated?.(server, uri);
  });

  const sample = hooks?.sample;
  if (sample) {
    client.setRequestHandler("sampling/createMessage", async (request, ctx) =>
      answer(server, "sampling/createMessage", () =>
        sample(server, request.params, ctx.mcpReq.signal, requestInfo(client, ctx.mcpReq.id)),
      ),
    );
  }
  const elicit = hooks?.elicit;
  if (elicit) {
    client.setRequestHandler("elicitation/create", async (request, ctx) =>
      answer(server, "elicitation/create", () =>
        elicit(server, request.params, ctx.mcpReq.signal, requestInfo(client, ctx.mcpReq.id)),
      ),
    );
  }
  const listRoots = hooks?.listRoots;
  if (listRoots) {
    client.setRequestHandler("roots/list", async (_request, ctx) =>
      answer(server, "roots/list", () =>
        listRoots(server, ctx.mcpReq.signal, requestInfo(client, ctx.mcpReq.id)),
      ),
    );
  }
}

/**
 * On a 2026-07-28 connection a server cannot send requests: the SDK dispatches the input
 * requests of an `input_required` result to the same handlers, with the entry's key as the id.
 */
function requestInfo(client: Client, id: unknown): ClientRequestInfo {
  return client.getProtocolEra() === "modern" && typeof id === "string" ? { inputKey: id } : {};
}

/** Runs a hook; its failure becomes an error answer that says which server asked and why it failed. */
async function answer<T>(server: string, method: string, hook: () => Promise<unknown>): Promise<T> {
  try {
    return (await hook()) as T;
  } catch (error) {
    if (error instanceof ProtocolError) {
      throw new ProtocolError(error.code, `${method} from server "${server}": ${error.message}`, error.data);
    }
    const code = error instanceof ClientCannotAnswer ? METHOD_NOT_FOUND : INTERNAL_ERROR;
    throw new ProtocolError(
      code,
      `${method} from server "${server}" cannot be answered: ${messageOf(error)}`,
      {
        server,
        method,
      },
    );
  }
}

/** Thrown by a hook when no client can answer this kind of request now (none connected, capability not declared). */
export class ClientCannotAnswer extends Error {
  override readonly name = "ClientCannotAnswer";
}
