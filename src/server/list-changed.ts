import type { McpServer } from "@modelcontextprotocol/server";
import type { ClientConnection } from "./client-connection.ts";

/** The first revision whose clients hear of list changes on `subscriptions/listen` streams. */
const LISTEN_REVISION = "2026-07-28";

/**
 * Makes the server's `send*ListChanged` safe to call at any time: servers join
 * after `serve` starts answering, and a list_changed sent before a 2025-era
 * client has initialized breaks the protocol's order (a stock client sees a
 * message it cannot place). A connection pinned to 2026-07-28 (stdio after
 * `server/discover`) has no initialize: its notifications go to the client's
 * `subscriptions/listen` streams (the SDK's stdio entry routes them, and drops
 * them when none listens), so they are always sent there.
 */
export function guardListChanged(server: McpServer, connection: ClientConnection): void {
  const initialized = () => server.server.getClientVersion() !== undefined;
  const listens = () => {
    const version = connection.protocolVersion();
    return version !== undefined && version >= LISTEN_REVISION;
  };
  for (const method of ["sendToolListChanged", "sendResourceListChanged", "sendPromptListChanged"] as const) {
    const send = server[method].bind(server);
    server[method] = () => {
      if (!server.isConnected()) return;
      if (listens() || (initialized() && connection.era() === "legacy")) send();
    };
  }
}
