import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Gateway } from "../gateway/gateway.ts";
import { createMcpServer } from "./create-mcp-server.ts";

/** Serves the gateway on this process's stdin/stdout. Resolves when the client disconnects. */
export async function serveStdio(gateway: Gateway): Promise<void> {
  const server = createMcpServer(gateway);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
}
