import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Catalog } from "../catalog/catalog.ts";
import { SecretRedactor } from "../secrets/redactor.ts";
import { UpstreamError } from "../upstream/errors.ts";
import { argumentLimitMiddleware } from "./argument-limit.ts";
import { BridgeError } from "./errors.ts";
import { createExecutionBridge } from "./execution-bridge.ts";
import { secretRedactionMiddleware } from "./redact-secrets.ts";
import { shapeResult } from "./shape-result.ts";
import type { ToolCallMiddleware, Upstream } from "./types.ts";
import { ArgumentValidator } from "./validate.ts";

const catalog = new Catalog(["files", "my-server"]);
catalog.setServerTools("files", [
  {
    name: "read",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        path: { type: "string" },
        mode: { enum: ["text", "bytes"] },
        ranges: { type: "array", items: { type: "object", properties: { start: { type: "integer" } } } },
        "content-type": { type: "string" },
      },
      required: ["path"],
      additionalProperties: false,
    },
  },
]);
catalog.setServerTools("my-server", [{ name: "get-sum", inputSchema: { type: "object" } }]);
const read = catalog.find("files/read")!;

function textResult(text: string, extra: Partial<CallToolResult> = {}): CallToolResult {
  return { content: [{ type: "text", text }], ...extra };
}

describe("shapeResult", () => {
  test("structuredContent wins over text", () => {
    assert.deepEqual(shapeResult(read, textResult("5", { structuredContent: { sum: 5 } })), { sum: 5 });
  });
  test("JSON objects and arrays in text are parsed; other text stays text", () => {
    assert.deepEqual(shapeResult(read, textResult('{"a":[1,2]}')), { a: [1, 2] });
    assert.deepEqual(shapeResult(read, textResult(" [1, 2]")), [1, 2]);
    assert.equal(shapeResult(read, textResult("42")), "42");
    assert.equal(shapeResult(read, textResult("{not json")), "{not json");
  });
  test("images and several parts", () => {
    const result: CallToolResult = {
      content: [
        { type: "text", text: "here" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a", text: "body", mimeType: "text/plain" } },
      ],
    };
    assert.deepEqual(shapeResult(read, result), [
      "here",
      { type: "image", mimeType: "image/png", data: "AAAA" },
      { type: "resource", uri: "file:///a", text: "body", mimeType: "text/plain" },
    ]);
    assert.equal(shapeResult(read, { content: [] }), null);
  });
  test("isError throws a ToolError carrying the content", () => {
    assert.throws(
      () => shapeResult(read, textResult("disk on fire", { isError: true })),
      (error: unknown) =>
        error instanceof BridgeError &&
        error.name === "ToolError" &&
        error.message === "files/read failed: disk on fire" &&
        (error.data.content as unknown[])[0] === "disk on fire",
    );
  });
});

describe("ArgumentValidator", () => {
  const validator = new ArgumentValidator();
  test("valid arguments pass", () => {
    assert.deepEqual(validator.check(read, { path: "a", mode: "text", ranges: [{ start: 1 }] }), []);
  });
  test("each problem names its path", () => {
    assert.deepEqual(
      validator.check(read, {
        mode: "xml",
        ranges: [{ start: 1 }, { start: "2" }],
        extra: 1,
        "content-type": 3,
      }),
      [
        { path: "args.path", message: "is required" },
        { path: "args.extra", message: "is not allowed" },
        { path: "args.mode", message: 'must be one of "text", "bytes"' },
        { path: "args.ranges[1].start", message: "must be integer" },
        { path: 'args["content-type"]', message: "must be string" },
      ],
    );
  });
});

function fakeUpstream(answer: (server: string, tool: string, args: unknown) => CallToolResult): Upstream & {
  seen: unknown[];
} {
  const seen: unknown[] = [];
  return {
    seen,
    async callTool(server, tool, args) {
      seen.push({ server, tool, args });
      return answer(server, tool, args);
    },
  };
}

describe("createExecutionBridge", () => {
  const signal = new AbortController().signal;

  test("calls the upstream by original names and shapes the result", async () => {
    const upstream = fakeUpstream(() => textResult('{"ok":true}'));
    const { bridge, stats } = createExecutionBridge({ catalog, upstream });
    assert.deepEqual(await bridge.callTool("my-server", "get-sum", { a: 1 }, signal), { ok: true });
    assert.deepEqual(upstream.seen, [{ server: "my-server", tool: "get-sum", args: { a: 1 } }]);
    assert.deepEqual(stats, { calls: 1, failed: 0 });
  });

  test("invalid arguments never reach the upstream", async () => {
    const upstream = fakeUpstream(() => textResult("x"));
    const { bridge } = createExecutionBridge({
      catalog,
      upstream,
      middleware: [new ArgumentValidator().middleware()],
    });
    await assert.rejects(bridge.callTool("files", "read", { path: 1 }, signal), {
      name: "ValidationError",
      code: "tool.invalid_args",
      message: "invalid arguments for tools.files.read: args.path: must be string",
    });
    assert.equal(upstream.seen.length, 0);
  });

  test("unknown tools, the call cap and upstream errors become BridgeErrors", async () => {
    const upstream = fakeUpstream(() => {
      throw new UpstreamError("upstream.timeout", "files/read did not answer within 5 ms", {
        server: "files",
      });
    });
    const { bridge, stats } = createExecutionBridge({ catalog, upstream, maxToolCalls: 2 });
    await assert.rejects(bridge.callTool("files", "nope", {}, signal), { code: "tool.unknown" });
    await assert.rejects(bridge.callTool("files", "read", { path: "a" }, signal), {
      name: "ToolError",
      code: "tool.timeout",
    });
    await assert.rejects(bridge.callTool("files", "read", { path: "a" }, signal), { code: "tool.timeout" });
    await assert.rejects(bridge.callTool("files", "read", { path: "a" }, signal), {
      name: "LimitError",
      code: "limit.tool_calls",
    });
    assert.equal(stats.calls, 2);
    assert.equal(stats.failed, 2);
  });

  test("middleware runs outermost first and can refuse", async () => {
    const order: string[] = [];
    const step =
      (name: string): ToolCallMiddleware =>
      async (call, next) => {
        order.push(`${name}>`);
        const value = await next(call);
        order.push(`<${name}`);
        return value;
      };
    const upstream = fakeUpstream(() => textResult("done"));
    const { bridge } = createExecutionBridge({ catalog, upstream, middleware: [step("a"), step("b")] });
    assert.equal(await bridge.callTool("my-server", "get-sum", {}, signal), "done");
    assert.deepEqual(order, ["a>", "b>", "<b", "<a"]);
  });
});

describe("secret redaction and argument limit at the bridge", () => {
  const secret = "sk-live-0123456789";
  const redactor = new SecretRedactor([secret]);
  const signal = new AbortController().signal;
  const upstreamAnswering = (result: CallToolResult | Error): Upstream => ({
    async callTool() {
      if (result instanceof Error) throw result;
      return result;
    },
  });
  const bridgeOver = (upstream: Upstream, middleware: ToolCallMiddleware[]) =>
    createExecutionBridge({ catalog, upstream, middleware }).bridge;

  test("results (text and structuredContent) reach code with configured secrets already removed", async () => {
    const bridge = bridgeOver(
      upstreamAnswering(textResult(`token=${secret}`, { structuredContent: { env: { TOKEN: secret } } })),
      [secretRedactionMiddleware(redactor)],
    );
    assert.deepEqual(await bridge.callTool("files", "read", { path: "a" }, signal), {
      env: { TOKEN: "[REDACTED]" },
    });
  });

  test("tool errors and upstream errors reach code with secrets removed from message and data", async () => {
    const failing = bridgeOver(upstreamAnswering(textResult(`bad key ${secret}`, { isError: true })), [
      secretRedactionMiddleware(redactor),
    ]);
    await assert.rejects(failing.callTool("files", "read", { path: "a" }, signal), (error: BridgeError) => {
      assert.equal(error.name, "ToolError");
      assert.ok(!JSON.stringify({ message: error.message, data: error.data }).includes(secret));
      assert.match(error.message, /bad key \[REDACTED\]/);
      return true;
    });
    const throwing = bridgeOver(
      upstreamAnswering(new UpstreamError("upstream.call_failed", `boom ${secret}`, { server: "files" })),
      [secretRedactionMiddleware(redactor)],
    );
    await assert.rejects(throwing.callTool("files", "read", { path: "a" }, signal), /boom \[REDACTED\]/);
  });

  test("arguments over the byte limit fail with LimitError and never reach the upstream", async () => {
    let calls = 0;
    const upstream: Upstream = {
      async callTool() {
        calls++;
        return textResult("ok");
      },
    };
    const bridge = bridgeOver(upstream, [argumentLimitMiddleware(1024)]);
    await assert.rejects(
      bridge.callTool("files", "read", { path: "x".repeat(2000) }, signal),
      (error: BridgeError) => {
        assert.equal(error.name, "LimitError");
        assert.equal(error.code, "limit.argument_bytes");
        assert.match(
          error.message,
          /files\/read are 2011 bytes of JSON, over the limit of 1024 bytes per call/,
        );
        return true;
      },
    );
    assert.equal(calls, 0);
    assert.equal(await bridge.callTool("files", "read", { path: "x" }, signal), "ok");
  });
});
