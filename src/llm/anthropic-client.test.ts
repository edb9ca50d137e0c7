import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rejectsWithModelError } from "../../test/helpers/model-errors.ts";
import { startAnthropicStub } from "../../test/helpers/model-stubs/anthropic-messages-stub.ts";
import { lastToolResults, type ModelStub, type StubScript } from "../../test/helpers/model-stubs/script.ts";
import { createAnthropicClient } from "./anthropic-client.ts";
import type { ModelClient, ModelRequest } from "./types.ts";

// The official @anthropic-ai/sdk against a loopback stub of the Messages API.

async function withStub(
  script: StubScript,
  run: (client: ModelClient, stub: ModelStub) => Promise<void>,
  overrides: { maxRetries?: number; timeoutMs?: number } = {},
): Promise<void> {
  const stub = await startAnthropicStub(script);
  try {
    const client = createAnthropicClient({
      model: "claude-test",
      apiKey: "sk-ant-test",
      baseUrl: stub.baseUrl,
      maxTokens: 1024,
      maxRetries: overrides.maxRetries ?? 3,
      timeoutMs: overrides.timeoutMs ?? 10_000,
    });
    await run(client, stub);
  } finally {
    await stub.close();
  }
}

const hello: ModelRequest = {
  system: "Be brief.",
  messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
};

describe("Anthropic client (Messages API)", () => {
  for (const streaming of [false, true]) {
    const mode = streaming ? "streaming" : "plain";

    it(`${mode}: a text answer with usage, the request as the API expects it`, async () => {
      await withStub(
        () => ({ text: ["Hel", "lo ", "there"], usage: { inputTokens: 42, outputTokens: 7 } }),
        async (client, stub) => {
          const deltas: string[] = [];
          const response = await client.complete(
            { ...hello, temperature: 0.2 },
            streaming ? { onText: (delta) => deltas.push(delta) } : {},
          );
          assert.deepEqual(response, {
            content: [{ type: "text", text: "Hello there" }],
            stopReason: "end_turn",
            usage: { inputTokens: 42, outputTokens: 7 },
            model: "claude-test",
          });
          assert.deepEqual(deltas, streaming ? ["Hel", "lo ", "there"] : []);
          const [request] = stub.requests;
          assert.equal(request?.path, "/v1/messages");
          assert.equal(request?.body.stream, streaming ? true : false);
          assert.equal(request?.body.model, "claude-test");
          assert.equal(request?.body.max_tokens, 1024);
          assert.equal(request?.body.temperature, 0.2);
          assert.equal(request?.body.system, "Be brief.");
          assert.deepEqual(request?.body.messages, [
            { role: "user", content: [{ type: "text", text: "Hi" }] },
          ]);
          const auth = `${request?.headers["x-api-key"] ?? ""} ${request?.headers.authorization ?? ""}`;
          assert.match(auth, /sk-ant-test/);
          assert.ok(request?.headers["anthropic-version"], "the SDK names the API version");
        },
      );
    });

    it(`${mode}: a tool-use round trip (tools and tool results sent as the API expects)`, async () => {
      await withStub(
        ({ body }) => {
          const results = lastToolResults(body);
          if (results.length === 0) {
            return {
              text: "Let me look.",
              toolUses: [
                { id: "toolu_1", name: "search_tools", input: { query: "weather in Paris", limit: 3 } },
              ],
            };
          }
          return { text: `Found: ${results[0]?.content}` };
        },
        async (client, stub) => {
          const tools = [
            {
              name: "search_tools",
              description: "Search the catalog",
              inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
            },
          ];
          const options = streaming ? { onText: () => {} } : {};
          const first = await client.complete({ ...hello, tools }, options);
          assert.equal(first.stopReason, "tool_use");
          assert.deepEqual(first.content, [
            { type: "text", text: "Let me look." },
            {
              type: "tool_use",
              id: "toolu_1",
              name: "search_tools",
              input: { query: "weather in Paris", limit: 3 },
            },
          ]);
          assert.deepEqual(stub.requests[0]?.body.tools, [
            {
              name: "search_tools",
              description: "Search the catalog",
              input_schema: {
                type: "object",
                properties: { query: { type: "string" } },
                required: ["query"],
              },
            },
          ]);
          const second = await client.complete(
            {
              ...hello,
              tools,
              messages: [
                ...hello.messages,
                { role: "assistant", content: first.content },
                {
                  role: "user",
                  content: [
                    { type: "tool_result", toolUseId: "toolu_1", content: "weather.get_forecast" },
                    { type: "tool_result", toolUseId: "toolu_2", content: "boom", isError: true },
                  ],
                },
              ],
            },
            options,
          );
          assert.deepEqual(second.content, [{ type: "text", text: "Found: weather.get_forecast" }]);
          assert.deepEqual(stub.requests[1]?.body.messages.slice(1), [
            {
              role: "assistant",
              content: [
                { type: "text", text: "Let me look." },
                {
                  type: "tool_use",
                  id: "toolu_1",
                  name: "search_tools",
                  input: { query: "weather in Paris", limit: 3 },
                },
              ],
            },
            {
              role: "user",
              content: [
                { type: "tool_result", tool_use_id: "toolu_1", content: "weather.get_forecast" },
                { type: "tool_result", tool_use_id: "toolu_2", content: "boom", is_error: true },
              ],
            },
          ]);
        },
      );
    });

    it(`${mode}: max_tokens and other stop reasons`, async () => {
      await withStub(
        ({ index }) => ({ text: "cut", stopReason: index === 0 ? "max_tokens" : "refusal" }),
        async (client) => {
          const options = streaming ? { onText: () => {} } : {};
          assert.equal((await client.complete(hello, options)).stopReason, "max_tokens");
          assert.equal((await client.complete(hello, options)).stopReason, "other");
        },
      );
    });

    it(`${mode}: 429 then success is retried after the retry-after-ms delay`, async () => {
      await withStub(
        ({ index }) =>
          index === 0
            ? { status: 429, message: "slow down", headers: { "retry-after-ms": "300" } }
            : { text: "ok" },
        async (client, stub) => {
          const started = Date.now();
          const response = await client.complete(hello, streaming ? { onText: () => {} } : {});
          assert.deepEqual(response.content, [{ type: "text", text: "ok" }]);
          assert.equal(stub.requests.length, 2);
          assert.ok(Date.now() - started >= 280, "the delay from the header was honoured");
        },
      );
    });
  }

  it("repeated 500 fails with llm.unavailable after maxRetries + 1 attempts", async () => {
    await withStub(
      () => ({ status: 500, message: "internal", headers: { "retry-after-ms": "5" } }),
      async (client, stub) => {
        const error = await rejectsWithModelError(client.complete(hello), "llm.unavailable");
        assert.equal(stub.requests.length, 3);
        assert.equal(error.data.status, 500);
        assert.equal(error.data.provider, "anthropic");
        assert.equal(error.data.model, "claude-test");
        assert.match(String(error.data.requestId), /^req_stub_/);
      },
      { maxRetries: 2 },
    );
  });

  it("429 on every attempt fails with llm.rate_limited", async () => {
    await withStub(
      () => ({ status: 429, message: "too many", headers: { "retry-after": "0.01" } }),
      async (client, stub) => {
        await rejectsWithModelError(client.complete(hello), "llm.rate_limited");
        assert.equal(stub.requests.length, 2);
      },
      { maxRetries: 1 },
    );
  });

  it("401 is llm.auth, not retried; 400 is llm.bad_request quoting the provider", async () => {
    await withStub(
      ({ index }) =>
        index === 0
          ? { status: 401, message: "invalid x-api-key" }
          : { status: 400, message: "messages: roles must alternate" },
      async (client, stub) => {
        const auth = await rejectsWithModelError(client.complete(hello), "llm.auth");
        assert.equal(auth.data.status, 401);
        assert.equal(stub.requests.length, 1);
        const bad = await rejectsWithModelError(
          client.complete(hello, { onText: () => {} }),
          "llm.bad_request",
        );
        assert.match(bad.message, /messages: roles must alternate/);
        assert.equal(bad.data.status, 400);
      },
    );
  });

  it("abort via signal is llm.aborted (plain and streaming)", async () => {
    await withStub(
      () => ({ text: "late", delayMs: 5_000 }),
      async (client) => {
        for (const onText of [undefined, () => {}]) {
          const controller = new AbortController();
          const started = Date.now();
          setTimeout(() => controller.abort(), 100);
          await rejectsWithModelError(
            client.complete(hello, { signal: controller.signal, onText }),
            "llm.aborted",
          );
          assert.ok(Date.now() - started < 3_000);
        }
      },
    );
  });

  it("an attempt longer than timeoutMs is llm.timeout", async () => {
    await withStub(
      () => ({ text: "late", delayMs: 3_000 }),
      async (client, stub) => {
        const error = await rejectsWithModelError(client.complete(hello), "llm.timeout");
        assert.equal(error.data.provider, "anthropic");
        assert.equal(stub.requests.length, 1);
      },
      { maxRetries: 0, timeoutMs: 200 },
    );
  });
});
