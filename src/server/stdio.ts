import { serveStdio as serveStdioEntry } from "@modelcontextprotocol/server/stdio";
import type { Gateway } from "../gateway/gateway.ts";
import { createMcpServer } from "./create-mcp-server.ts";
import { wireFrontEnd } from "./forwarding/wire-front-end.ts";

/**
 * Serves the gateway on this process's stdin/stdout, to clients of either era
 * (a 2026-07-28 `server/discover` or a 2025-era `initialize`). Resolves when the client disconnects.
 */
export async function serveStdio(gateway: Gateway): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
  wireFrontEnd(gateway);
  const handle = serveStdioEntry(() => createMcpServer(gateway), {
    onerror: (error) => process.stderr.write(`[toolscript] stdio: ${error.message}\n`),
  });
  await closed;
  await handle.close().catch(() => {});
}
