import assert from "node:assert/strict";
import { test } from "node:test";
import { clientTraceCarrier } from "./trace-context.ts";
import { upstreamRequestOf } from "./upstream-span.ts";

const META = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
const HEADER = "00-11111111111111111111111111111111-2222222222222222-01";

const headers = (entries: Record<string, string>) => new Headers(entries);

test("the client's trace context: _meta wins over the HTTP headers, which stand in when it has none", () => {
  assert.deepEqual(
    clientTraceCarrier({ traceparent: META, tracestate: "a=1" }, headers({ traceparent: HEADER })),
    { traceparent: META, tracestate: "a=1" },
  );
  assert.deepEqual(
    clientTraceCarrier({ progressToken: 1 }, headers({ traceparent: HEADER, tracestate: "b=2" })),
    {
      traceparent: HEADER,
      tracestate: "b=2",
    },
  );
  assert.equal(clientTraceCarrier(undefined, headers({})), undefined);
  assert.equal(clientTraceCarrier({ traceparent: 7 }), undefined, "not a string: not a trace context");
});

test("a connection's request label names the MCP method and its target", () => {
  assert.deepEqual(upstreamRequestOf("search", "search"), { method: "tools/call", tool: "search" });
  assert.deepEqual(upstreamRequestOf("resources/read file:///a b", undefined), {
    method: "resources/read",
    uri: "file:///a b",
  });
  assert.deepEqual(upstreamRequestOf("prompts/get greet", undefined), {
    method: "prompts/get",
    prompt: "greet",
  });
  assert.deepEqual(upstreamRequestOf("completion/complete", undefined), { method: "completion/complete" });
});
