import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A span as OTLP/HTTP JSON carries it (ids in hex). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number };
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

export type OtlpCollector = Awaited<ReturnType<typeof startCollector>>;

/** A collector on loopback that keeps every span of every `POST /v1/traces` (OTLP JSON); `close` stops it. */
export async function startCollector() {
  const spans: OtlpSpan[] = [];
  const resources: unknown[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      contentTypes.push(String(request.headers["content-type"]));
      if (request.method === "POST" && request.url === "/v1/traces") {
        const payload = JSON.parse(body) as {
          resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
        };
        for (const group of payload.resourceSpans) {
          resources.push(group.resource);
          for (const scope of group.scopeSpans) spans.push(...scope.spans);
        }
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    resources,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A span attribute's value (whichever of stringValue, intValue, ... OTLP JSON used). */
export function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
}
