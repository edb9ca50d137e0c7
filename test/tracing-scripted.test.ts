import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { attribute, type OtlpCollector, type OtlpSpan, startCollector } from "./helpers/otlp-collector.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";
import { serveTraced, stop, type TracedGateway, until } from "./helpers/traced-serve.ts";

// The scripted test server behind `toolscript serve --http`, spans sent to the collector named by
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT alone (a protobuf protocol asked for: warned, JSON sent): a
// program's calls, and a passed-through call, each carry the client's trace to the upstream.

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const traceparent = (spanId: string) => `00-${TRACE_ID}-${spanId}-01`;

describe("tracing: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, the scripted server, pass-through", () => {
  const dir = tempDir("tracing-scripted");
  let collector: OtlpCollector;
  let gateway: TracedGateway;
  let client: Client;

  before(async () => {
    collector = await startCollector();
    gateway = await serveTraced(dir.path, {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: { passThrough: { scripted: { prefix: "s__" } } },
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      },
    });
    client = new Client({ name: "tracing-scripted", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  });

  after(async () => {
    await client?.close();
    if (gateway) await stop(gateway.child, "SIGKILL");
    await collector?.close();
    dir.remove();
  });

  const childrenOf = (parent: OtlpSpan) =>
    collector.spans.filter((span) => span.parentSpanId === parent.spanId);

  test("a program calling two tools: execution, call and request spans in the client's trace", async () => {
    const answer = (await client.callTool(
      {
        name: "execute_code",
        arguments: {
          code: "const e = await tools.scripted.echo({ message: 'hi' }); const m = await tools.scripted.meta({}); return { e, m };",
          session: "scripted-trace",
        },
        _meta: { traceparent: traceparent("00f067aa0ba902b7") },
      },
      { timeout: 30_000 },
    )) as { structuredContent?: { result?: { m?: { traceparent?: string } } }; isError?: boolean };
    assert.notEqual(answer.isError, true, JSON.stringify(answer));

    const execution = await until("the execution span", () =>
      collector.spans.find((span) => attribute(span, "toolscript.session") === "scripted-trace"),
    );
    assert.equal(execution.name, "tools/call execute_code");
    assert.equal(execution.traceId, TRACE_ID);
    assert.equal(execution.parentSpanId, "00f067aa0ba902b7");
    assert.equal(attribute(execution, "toolscript.tool_calls"), 2);
    assert.equal(typeof attribute(execution, "jsonrpc.request.id"), "string");

    const calls = await until("two call spans", () => {
      const found = childrenOf(execution);
      return found.length === 2 ? found : undefined;
    });
    assert.deepEqual(calls.map((span) => span.name).sort(), [
      "execute_tool scripted.echo",
      "execute_tool scripted.meta",
    ]);
    const requests = await until("a request span under each call", () => {
      const found = calls.map((call) => childrenOf(call)[0]);
      return found.every((span) => span !== undefined) ? (found as OtlpSpan[]) : undefined;
    });
    assert.deepEqual(requests.map((span) => span.name).sort(), ["tools/call echo", "tools/call meta"]);
    for (const request of requests) {
      assert.equal(request.traceId, TRACE_ID);
      assert.equal(request.kind, 3, "CLIENT");
    }
    const metaRequest = requests.find((span) => span.name === "tools/call meta") as OtlpSpan;
    assert.equal(answer.structuredContent?.result?.m?.traceparent, traceparent(metaRequest.spanId));

    assert.match(gateway.stderr, /OTEL_EXPORTER_OTLP_PROTOCOL=http\/protobuf is not supported/);
    assert.ok(collector.contentTypes.every((type) => type.startsWith("application/json")));
    assert.match(
      JSON.stringify(collector.resources),
      /"service\.name","value":\{"stringValue":"toolscript"\}/,
    );
  });

  test("a passed-through call is a SERVER span under the client's, its upstream request a CLIENT child", async () => {
    const answer = (await client.callTool(
      { name: "s__meta", arguments: {}, _meta: { traceparent: traceparent("a3ce929d0e0e4736") } },
      { timeout: 30_000 },
    )) as { structuredContent?: { traceparent?: string } };

    const forwarded = await until("the pass-through span", () =>
      collector.spans.find((span) => span.name === "tools/call s__meta"),
    );
    assert.equal(forwarded.kind, 2, "SERVER");
    assert.equal(forwarded.traceId, TRACE_ID);
    assert.equal(forwarded.parentSpanId, "a3ce929d0e0e4736");
    assert.equal(attribute(forwarded, "mcp.method.name"), "tools/call");
    assert.equal(attribute(forwarded, "gen_ai.tool.name"), "s__meta");
    assert.equal(attribute(forwarded, "toolscript.server"), "scripted");

    const request = await until("the upstream request span", () => childrenOf(forwarded)[0]);
    assert.equal(request.name, "tools/call meta");
    assert.equal(request.kind, 3, "CLIENT");
    assert.equal(answer.structuredContent?.traceparent, traceparent(request.spanId));
  });
});
