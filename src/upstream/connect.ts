import {
  type AuthProvider,
  Client,
  type ClientCapabilities,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { messageOf } from "../errors/message-of.ts";
import { defaultResultTypeToComplete } from "./default-result-type.ts";
import { limitedFetch } from "./limited-fetch.ts";
import { isLoginRequired } from "./login-gate.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, ProcessGroupStdioTransport } from "./stdio-transport.ts";
import type { UpstreamServerConfig } from "./types.ts";

export const CLIENT_INFO = { name: "toolscript", version: "0.1.0" } as const;

/** How long a stdio server may stay silent on `server/discover` before it counts as a 2025-era server. */
export const DEFAULT_PROBE_TIMEOUT_MS = 3000;

export interface OpenedClient {
  client: Client;
  transport: Transport;
  kind: "stdio" | "streamable-http" | "sse";
  /** Present for stdio: the child's stderr tail and exit status. */
  stdio?: ProcessGroupStdioTransport;
}

export interface OpenOptions {
  maxMessageBytes?: number | undefined;
  /** Capabilities declared to the server (sampling, elicitation, roots: only those the gateway can answer). */
  capabilities?: ClientCapabilities | undefined;
  probeTimeoutMs?: number | undefined;
  /** OAuth: a token on each request, a login or refresh on 401. */
  authProvider?: AuthProvider | undefined;
}

/**
 * Opens an initialized MCP client for one server, negotiating the protocol
 * era: a `server/discover` probe selects 2026-07-28 with servers that offer
 * it, anything else falls back to the 2025 `initialize` handshake (2025-11-25,
 * 2025-06-18, 2025-03-26). For remote servers in `auto` mode it tries
 * Streamable HTTP first and falls back to the legacy SSE transport, as the MCP
 * spec's backwards-compatibility section recommends.
 * `prepare` registers handlers before the handshake so no notification is missed.
 * `attempt.stdio` is set as soon as a child process exists, so a failed start
 * can still report the child's exit status and stderr.
 */
export async function openClient(
  config: UpstreamServerConfig,
  prepare: (client: Client) => void,
  signal: AbortSignal,
  attempt: { stdio?: ProcessGroupStdioTransport } = {},
  options: OpenOptions = {},
): Promise<OpenedClient> {
  const newClient = (legacyOnly = config.era === "legacy"): Client => {
    const client = new Client(CLIENT_INFO, {
      capabilities: options.capabilities ?? {},
      ...(!legacyOnly && {
        versionNegotiation: {
          mode: "auto",
          probe: { timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS },
        },
      }),
    });
    prepare(client);
    return client;
  };
  if (config.kind === "stdio") {
    const stdioOptions = { ...config, maxMessageBytes: options.maxMessageBytes };
    const transport = new ProcessGroupStdioTransport(stdioOptions);
    attempt.stdio = transport;
    const client = newClient();
    try {
      await connectOrClose(client, transport, signal);
      return { client, transport, kind: "stdio", stdio: transport };
    } catch (error) {
      // Some servers exit on any request before `initialize`: the probe cost that process, so a
      // fresh one gets the plain 2025 handshake. A server that cannot start fails this one too.
      if (signal.aborted || transport.exit === undefined || transport.pid === undefined) throw error;
      const again = new ProcessGroupStdioTransport(stdioOptions);
      attempt.stdio = again;
      const legacy = newClient(true);
      await connectOrClose(legacy, again, signal);
      return { client: legacy, transport: again, kind: "stdio", stdio: again };
    }
  }
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  const authProvider = options.authProvider;
  // Remote answers are bounded like stdio ones (the SDK reads HTTP bodies whole, however large).
  const fetch = limitedFetch(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  if (config.transport !== "sse") {
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit,
      fetch,
      ...(authProvider && { authProvider }),
    });
    try {
      await connectOrClose(client, transport, signal);
      return { client, transport, kind: "streamable-http" };
    } catch (error) {
      // A server that wants a login wants it on any transport: SSE would only ask again.
      if (config.transport === "streamable-http" || signal.aborted || isLoginRequired(error)) throw error;
      const client2 = newClient(true);
      const sse = new SSEClientTransport(url, { requestInit, fetch, ...(authProvider && { authProvider }) });
      try {
        await connectOrClose(client2, sse, signal);
        return { client: client2, transport: sse, kind: "sse" };
      } catch (sseError) {
        throw new Error(`Streamable HTTP: ${messageOf(error)}; legacy SSE: ${messageOf(sseError)}`, {
          cause: sseError,
        });
      }
    }
  }
  // The legacy SSE transport predates 2026-07-28: no probe, the plain 2025 handshake.
  const client = newClient(true);
  const transport = new SSEClientTransport(url, {
    requestInit,
    fetch,
    ...(authProvider && { authProvider }),
  });
  await connectOrClose(client, transport, signal);
  return { client, transport, kind: "sse" };
}

async function connectOrClose(client: Client, transport: Transport, signal: AbortSignal): Promise<void> {
  await connectRacingAbort(client, transport, signal);
  if (client.getProtocolEra() === "modern") defaultResultTypeToComplete(transport);
}

async function connectRacingAbort(client: Client, transport: Transport, signal: AbortSignal): Promise<void> {
  // The SDK's signal covers the handshake, not the transport's start: a legacy SSE stream that never
  // sends its endpoint would keep `connect` pending after the abort. The abort itself ends the wait.
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      void transport.close().catch(() => {});
      reject(signal.reason ?? new Error("connect aborted"));
    };
  });
  aborted.catch(() => {});
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  try {
    await Promise.race([client.connect(transport, { signal }), aborted]);
  } catch (error) {
    await transport.close().catch(() => {});
    throw signal.aborted ? (signal.reason ?? error) : error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
