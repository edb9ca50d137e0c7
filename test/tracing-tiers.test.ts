import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SpanKind, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-node";
import { Gateway } from "../src/gateway/gateway.ts";
import type { CodeLanguage } from "../src/gateway/types.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

// Each sandbox tier calls back into the host its own way (isolated-vm callbacks, the process
// tier's pipe, Python in the process tier): the program's calls must still be children of their
// own execution's span, also with two executions of different traces running at once.

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register({ propagator: new W3CTraceContextPropagator() });

const spanId = (span: ReadableSpan) => span.spanContext().spanId;
const childrenOf = (parent: ReadableSpan) =>
  exporter.getFinishedSpans().filter((span) => span.parentSpanContext?.spanId === spanId(parent));

const PROGRAMS: Record<CodeLanguage, string> = {
  typescript: "await tools.scripted.slow({ ms: 30 }); return await tools.scripted.meta({});",
  javascript: "await tools.scripted.slow({ ms: 30 }); return await tools.scripted.meta({});",
  python: "await tools.scripted.slow(ms=30)\nawait tools.scripted.meta()",
};

const CASES: Array<{ tier: "isolate" | "process"; language: CodeLanguage }> = [
  { tier: "isolate", language: "typescript" },
  { tier: "process", language: "typescript" },
  { tier: "isolate", language: "python" },
];

for (const { tier, language } of CASES) {
  describe(`tracing: ${language} in the ${language === "python" ? "process" : tier} tier`, () => {
    const dir = tempDir(`tracing-${tier}-${language}`);
    let gateway: Gateway;

    before(async () => {
      gateway = new Gateway({
        config: {
          mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
          toolscript: {
            sandbox: { runtime: tier, poolSize: 2, typecheck: false, timeoutMs: 30_000, python: { pool: 1 } },
            storage: { dir: dir.path },
          },
        },
      });
      await gateway.start();
    });

    after(async () => {
      await gateway?.close();
      dir.remove();
    });

    test("two executions at once: each call and request span under its own execution's span", async () => {
      const traces = ["1", "2"].map((digit) => ({
        traceId: digit.repeat(32),
        parent: digit.repeat(16),
      }));
      const responses = await Promise.all(
        traces.map(({ traceId, parent }) =>
          gateway.execute({
            code: PROGRAMS[language],
            language,
            session: `tiers-${tier}-${language}-${parent}`,
            trace: { traceparent: `00-${traceId}-${parent}-01` },
          }),
        ),
      );
      for (const [index, { traceId, parent }] of traces.entries()) {
        const response = responses[index];
        assert.equal(response?.error, undefined, JSON.stringify(response?.error));
        const execution = exporter
          .getFinishedSpans()
          .find((span) => span.attributes["toolscript.session"] === `tiers-${tier}-${language}-${parent}`);
        assert.ok(execution, "the execution's span");
        assert.equal(execution.spanContext().traceId, traceId);
        assert.equal(execution.parentSpanContext?.spanId, parent);
        const calls = childrenOf(execution);
        assert.deepEqual(calls.map((span) => span.name).sort(), [
          "execute_tool scripted.meta",
          "execute_tool scripted.slow",
        ]);
        for (const call of calls) {
          const requests = childrenOf(call);
          assert.equal(requests.length, 1, `one request under ${call.name}`);
          assert.equal(requests[0]?.spanContext().traceId, traceId);
        }
        const metaCall = calls.find((span) => span.name === "execute_tool scripted.meta") as ReadableSpan;
        const metaRequest = childrenOf(metaCall)[0] as ReadableSpan;
        const seen = response?.result as { traceparent?: string };
        assert.equal(seen.traceparent, `00-${traceId}-${spanId(metaRequest)}-01`);
      }
    });

    if (tier === "isolate" && language === "typescript")
      test("without a client's trace, an execution (embedding code, the CLI) is a child of the active span", async () => {
        const app = trace.getTracer("embedding-app");
        const parent = await app.startActiveSpan("app work", async (span) => {
          await gateway.execute({ code: "return 1", session: "embedded" });
          span.end();
          return span;
        });
        const execution = exporter
          .getFinishedSpans()
          .find((span) => span.attributes["toolscript.session"] === "embedded");
        assert.equal(execution?.name, "execute_code");
        assert.equal(execution?.kind, SpanKind.INTERNAL);
        assert.equal(execution?.parentSpanContext?.spanId, parent.spanContext().spanId);
      });
  });
}

after(() => provider.shutdown());
