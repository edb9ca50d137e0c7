import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { limitedFetch } from "./limited-fetch.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, ProcessGroupStdioTransport } from "./stdio-transport.ts";
import type { UpstreamServerConfig } from "./types.ts";

export const CLIENT_INFO = { name: "toolscript", version: "0.1.0" } as const;

export interface OpenedClient {
  client: Client;
  transport: Transport;
  kind: "stdio" | "streamable-http" | "sse";
  /** Present for stdio: the child's stderr tail and exit status. */
  stdio?: ProcessGroupStdioTransport;
}

/**
 * Opens an initialized MCP client for one server. For remote servers in
 * `auto` mode it tries Streamable HTTP first and falls back to the legacy SSE
 * transport, as the MCP spec's backwards-compatibility section recommends.
 * `prepare` registers handlers before `initialize` so no notification is missed.
 * `attempt.stdio` is set as soon as a child process exists, so a failed start
 * can still report the child's exit status and stderr.
 */
export async function openClient(
  config: UpstreamServerConfig,
  prepare: (client: Client) => void,
  signal: AbortSignal,
  attempt: { stdio?: ProcessGroupStdioTransport } = {},
  limits: { maxMessageBytes?: number | undefined } = {},
): Promise<OpenedClient> {
  if (config.kind === "stdio") {
    const transport = new ProcessGroupStdioTransport({ ...config, maxMessageBytes: limits.maxMessageBytes });
    attempt.stdio = transport;
    const client = newClient(prepare);
    await connectOrClose(client, transport, signal);
    return { client, transport, kind: "stdio", stdio: transport };
  }
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  // Remote answers are bounded like stdio ones (the SDK reads HTTP bodies whole, however large).
  const fetch = limitedFetch(limits.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  if (config.transport !== "sse") {
    const client = newClient(prepare);
    const transport = new StreamableHTTPClientTransport(url, { requestInit, fetch });
    try {
      await connectOrClose(client, transport, signal);
      return { client, transport, kind: "streamable-http" };
    } catch (error) {
      if (config.transport === "streamable-http" || signal.aborted) throw error;
      const client2 = newClient(prepare);
      const sse = new SSEClientTransport(url, { requestInit, fetch });
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
  const client = newClient(prepare);
  const transport = new SSEClientTransport(url, { requestInit, fetch });
  await connectOrClose(client, transport, signal);
  return { client, transport, kind: "sse" };
}

function newClient(prepare: (client: Client) => void): Client {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  prepare(client);
  return client;
}

async function connectOrClose(client: Client, transport: Transport, signal: AbortSignal): Promise<void> {
  // The SDK's signal covers `initialize`, not the transport's start: a legacy SSE stream that never
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

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
