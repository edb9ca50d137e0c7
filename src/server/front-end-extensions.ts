import type { McpServer } from "@modelcontextprotocol/server";
import type { Gateway } from "../gateway/gateway.ts";
import type { Caller } from "./caller.ts";
import type { ClientConnection } from "./client-connection.ts";

/**
 * Adds to every front-end server of a gateway (stdio, each 2025-era HTTP
 * session, each 2026-07-28 HTTP request) before it connects, e.g. the
 * pass-through of upstream tools, prompts, resources, templates, completions
 * and subscriptions: capabilities can only be declared before connecting.
 */
export type FrontEndExtension = (server: McpServer, connection: ClientConnection, caller: Caller) => void;

const extensions = new WeakMap<Gateway, FrontEndExtension[]>();

/** Registers `extension` for the gateway's servers made from now on; returns its removal. */
export function extendFrontEnd(gateway: Gateway, extension: FrontEndExtension): () => void {
  const list = extensions.get(gateway) ?? [];
  list.push(extension);
  extensions.set(gateway, list);
  return () => {
    const index = list.indexOf(extension);
    if (index >= 0) list.splice(index, 1);
  };
}

/** Applies the gateway's extensions to a new server (createMcpServer calls it). */
export function applyFrontEndExtensions(
  gateway: Gateway,
  server: McpServer,
  connection: ClientConnection,
  caller: Caller,
): void {
  for (const extension of extensions.get(gateway) ?? []) extension(server, connection, caller);
}
