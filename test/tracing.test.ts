import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { attribute, type OtlpCollector, type OtlpSpan, startCollector } from "./helpers/otlp-collector.ts";
import { REPO_ROOT, tempDir } from "./helpers/servers.ts";
import { serveTraced, stop, type TracedGateway, until } from "./helpers/traced-serve.ts";

// `toolscript serve --http` with the OTEL_* variables pointing at an OTLP/HTTP JSON collector on
// loopback: the spans of one execution arrive there as one tree under the client's span, and the
// upstream servers are told the trace context in their requests' `_meta`.

const TRACE_JS = join(REPO_ROOT, "test/servers/trace-meta-server.mjs");
const CLIENT_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const CLIENT_SPAN_ID = "b7ad6b7169203331";

/** The gateway with two trace-meta servers (2026-07-28 and 2025 SDKs), exporting to `collector`. */
function serve(dir: string, collector: string, env: Record<string, string> = {}) {
  return serveTraced(dir, {
    mcpServers: {
      modern: { command: process.execPath, args: [TRACE_JS] },
      legacy: { command: process.execPath, args: [TRACE_JS, "--legacy"] },
    },
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "toolscript-under-test",
      ...env,
    },
  });
}

describe("tracing: toolscript serve --http with OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  const dir = tempDir("tracing");
  let collector: OtlpCollector;
  let gateway: TracedGateway;
  let child: ChildProcess;
  let url = "";

  before(async () => {
    collector = await startCollector();
    gateway = await serve(dir.path, collector.url);
    child = gateway.child;
    url = gateway.url;
  });

  after(async () => {
    await stop(child, "SIGKILL");
    await collector.close();
    dir.remove();
  });

  test("one execution is one span tree under the client's span; upstreams get its traceparent in _meta", async () => {
    const client = new Client({ name: "tracing-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    let answer: { structuredContent?: unknown; isError?: boolean };
    try {
      answer = (await client.callTool(
        {
          name: "execute_code",
          arguments: {
            code: [
              "const a = await tools.modern.meta({});",
              "const b = await tools.legacy.meta({});",
              "const r = await resources.read('trace://meta', { server: 'modern' });",
              "return { a, b, r: JSON.parse(r.contents[0].text) };",
            ].join("\n"),
          },
          _meta: { traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`, tracestate: "vendor=1" },
        },
        { timeout: 30_000 },
      )) as typeof answer;
    } finally {
      await client.close();
    }
    assert.notEqual(answer.isError, true, JSON.stringify(answer));
    const seen = (
      answer.structuredContent as { result: Record<string, { traceparent?: string; tracestate?: string }> }
    ).result;

    const execution = await until("the execution span", () =>
      collector.spans.find((span) => span.name === "tools/call execute_code"),
    );
    assert.equal(execution.traceId, CLIENT_TRACE_ID);
    assert.equal(execution.parentSpanId, CLIENT_SPAN_ID);
    assert.equal(execution.kind, 2, "SERVER");
    assert.equal(attribute(execution, "mcp.method.name"), "tools/call");
    assert.equal(attribute(execution, "gen_ai.tool.name"), "execute_code");
    assert.equal(attribute(execution, "toolscript.tool_calls"), 3);
    assert.equal(attribute(execution, "toolscript.outcome"), "ok");
    assert.equal(attribute(execution, "toolscript.language"), "typescript");
    assert.equal(typeof attribute(execution, "toolscript.sandbox.tier"), "string");
    assert.equal(typeof attribute(execution, "toolscript.tokens.returned"), "number");

    const calls = await until("three call spans", () => {
      const found = collector.spans.filter((span) => span.parentSpanId === execution.spanId);
      return found.length === 3 ? found : undefined;
    });
    const callNamed = (name: string) => {
      const span = calls.find((candidate) => candidate.name === name);
      assert.ok(span, `no span ${name} among ${calls.map((call) => call.name).join(", ")}`);
      return span;
    };
    const modernCall = callNamed("execute_tool modern.meta");
    const legacyCall = callNamed("execute_tool legacy.meta");
    const readCall = callNamed("resources/read modern");
    assert.equal(attribute(modernCall, "toolscript.outcome"), "ok");
    assert.equal(attribute(modernCall, "toolscript.policy"), "allow");
    assert.equal(attribute(modernCall, "gen_ai.tool.name"), "meta");
    assert.equal(typeof attribute(modernCall, "toolscript.result_bytes"), "number");

    const requests = await until("three upstream request spans", () => {
      const found = collector.spans.filter((span) => calls.some((call) => call.spanId === span.parentSpanId));
      return found.length === 3 ? found : undefined;
    });
    for (const request of requests) {
      assert.equal(request.traceId, CLIENT_TRACE_ID);
      assert.equal(request.kind, 3, "CLIENT");
    }
    const requestUnder = (call: OtlpSpan) => {
      const span = requests.find((candidate) => candidate.parentSpanId === call.spanId);
      assert.ok(span, `no upstream request under ${call.name}`);
      return span;
    };
    const modernRequest = requestUnder(modernCall);
    const legacyRequest = requestUnder(legacyCall);
    const readRequest = requestUnder(readCall);
    assert.equal(modernRequest.name, "tools/call meta");
    assert.equal(attribute(modernRequest, "mcp.method.name"), "tools/call");
    assert.equal(attribute(modernRequest, "network.transport"), "pipe");
    assert.equal(readRequest.name, "resources/read");
    assert.equal(attribute(readRequest, "mcp.resource.uri"), "trace://meta");

    // Each server was told the span of the request it answered, in both protocol eras.
    assert.equal(seen.a?.traceparent, `00-${CLIENT_TRACE_ID}-${modernRequest.spanId}-01`);
    assert.equal(seen.b?.traceparent, `00-${CLIENT_TRACE_ID}-${legacyRequest.spanId}-01`);
    assert.equal(seen.r?.traceparent, `00-${CLIENT_TRACE_ID}-${readRequest.spanId}-01`);
    assert.equal(seen.a?.tracestate, "vendor=1");

    assert.ok(collector.contentTypes.every((type) => type.startsWith("application/json")));
    assert.match(JSON.stringify(collector.resources), /toolscript-under-test/);
    assert.match(gateway.stderr, /tracing: exporting spans to/);
    assert.equal(gateway.stdout, "", "tracing writes nothing on stdout");
  });

  test("without _meta, the trace context comes from the HTTP headers (both client eras)", async () => {
    const modern = new Client({ name: "tracing-test", version: "1.0.0" });
    const legacy = new LegacyClient({ name: "tracing-test-legacy", version: "1.0.0" });
    const headers = (spanId: string) => ({ traceparent: `00-${CLIENT_TRACE_ID}-${spanId}-01` });
    await modern.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: headers("1111111111111111") },
      }),
    );
    await legacy.connect(
      new LegacyTransport(new URL(url), { requestInit: { headers: headers("2222222222222222") } }),
    );
    try {
      const call = { name: "execute_code", arguments: { code: "return 1" } };
      await modern.callTool(call, { timeout: 30_000 });
      await legacy.callTool(call, undefined, { timeout: 30_000 });
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
    for (const parent of ["1111111111111111", "2222222222222222"]) {
      const span = await until(`the execution span under ${parent}`, () =>
        collector.spans.find((candidate) => candidate.parentSpanId === parent),
      );
      assert.equal(span.name, "tools/call execute_code");
      assert.equal(span.traceId, CLIENT_TRACE_ID);
    }
  });

  test("a failed program's span has status ERROR, and one without a client trace starts a trace", async () => {
    const client = new Client({ name: "tracing-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      await client.callTool(
        { name: "execute_code", arguments: { code: "throw new RangeError('no')", session: "failing" } },
        { timeout: 30_000 },
      );
    } finally {
      await client.close();
    }
    const failed = await until("the failed execution's span", () =>
      collector.spans.find(
        (span) =>
          span.name === "tools/call execute_code" && attribute(span, "toolscript.session") === "failing",
      ),
    );
    assert.equal(failed.status?.code, 2, "ERROR");
    assert.equal(attribute(failed, "error.type"), "RangeError");
    assert.notEqual(failed.traceId, CLIENT_TRACE_ID);
    assert.equal(failed.parentSpanId ?? "", "");
  });
});

describe("tracing: shutting down", () => {
  const dir = tempDir("tracing-flush");
  after(() => dir.remove());

  test("SIGTERM exports the spans still queued before the gateway exits", async () => {
    const collector = await startCollector();
    try {
      // A minute between batches: only the flush at shutdown can send the span in time.
      const gateway = await serve(dir.path, collector.url, { OTEL_BSP_SCHEDULE_DELAY: "60000" });
      const client = new Client({ name: "tracing-flush", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
      try {
        await client.callTool({ name: "execute_code", arguments: { code: "return 1" } }, { timeout: 30_000 });
      } finally {
        await client.close();
      }
      assert.equal(collector.spans.length, 0, "nothing exported before the shutdown");
      assert.equal(await stop(gateway.child, "SIGTERM"), 0, gateway.stderr);
      assert.ok(
        collector.spans.some((span) => span.name === "tools/call execute_code"),
        collector.spans.map((span) => span.name).join(", "),
      );
    } finally {
      await collector.close();
    }
  });
});
