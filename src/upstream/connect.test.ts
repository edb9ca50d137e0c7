import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import { openClient } from "./connect.ts";

/**
 * A server no MCP 1.x client can use: `initialize` answered with a protocol
 * version it does not support, and a GET (the legacy SSE fallback) answered
 * with an event stream that never names its endpoint.
 */
function unusableServer(): Server {
  return createServer((request, response) => {
    if (request.method === "POST") {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        const id = (JSON.parse(body) as { id?: unknown }).id ?? null;
        response.setHeader("content-type", "application/json");
        response.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            result: {
              protocolVersion: "2099-01-01",
              capabilities: {},
              serverInfo: { name: "x", version: "1" },
            },
          }),
        );
      });
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(": waiting\n\n");
  });
}

describe("openClient", () => {
  let server: Server;
  let url: string;

  before(async () => {
    server = unusableServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("gives up when its signal aborts, even while the SSE fallback waits for an endpoint", {
    timeout: 20_000,
  }, async () => {
    const signal = AbortSignal.timeout(1_000);
    await assert.rejects(
      openClient(
        { kind: "http", name: "unusable", url, headers: {}, transport: "auto", disabled: false },
        () => {},
        signal,
      ),
      /Streamable HTTP: .*protocol version is not supported.*; legacy SSE: .*abort/,
    );
  });
});
