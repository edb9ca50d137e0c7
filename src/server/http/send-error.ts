import type { ServerResponse } from "node:http";

/** A JSON-RPC error as an HTTP answer (the front end's own refusals: auth, origin, limits). */
export function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  code = -32000,
  id: string | number | null = null,
): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}
