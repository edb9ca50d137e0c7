import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import {
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  InMemoryTransport,
  McpServer,
} from "@modelcontextprotocol/server";
import { rejectsWithModelError } from "../../test/helpers/model-errors.ts";
import { createSamplingClient, type SamplingRequester } from "./sampling-client.ts";
import type { ModelClient, ModelRequest } from "./types.ts";

// A real 2.x SDK client that declares sampling and answers sampling/createMessage,
// linked in memory to a real server whose createMessage feeds the sampling client.

type Answer = (
  params: CreateMessageRequest["params"],
  signal: AbortSignal,
) => Promise<CreateMessageResult | CreateMessageResultWithTools>;

async function withPair(
  capabilities: ClientCapabilities,
  answer: Answer,
  run: (client: ModelClient, received: Array<CreateMessageRequest["params"]>) => Promise<void>,
): Promise<void> {
  const server = new McpServer({ name: "sampling-test-server", version: "1" });
  const client = new Client({ name: "sampling-test-client", version: "1" }, { capabilities });
  const received: Array<CreateMessageRequest["params"]> = [];
  if (capabilities.sampling) {
    client.setRequestHandler("sampling/createMessage", async (request, ctx) => {
      received.push(request.params);
      return answer(request.params, ctx.mcpReq.signal);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const send: SamplingRequester = (params, options) =>
      server.server.createMessage(params, options.signal === undefined ? {} : { signal: options.signal });
    const model = createSamplingClient({
      send,
      capabilities: server.server.getClientCapabilities(),
      maxTokens: 500,
      modelHint: "claude-sonnet",
    });
    await run(model, received);
  } finally {
    await client.close();
    await server.close();
  }
}

const hello: ModelRequest = {
  system: "Be brief.",
  messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
};

const tools = [
  { name: "lookup", description: "Look a word up", inputSchema: { type: "object", properties: {} } },
];

describe("sampling client (MCP sampling/createMessage)", () => {
  it("a text answer from a client that declared sampling", async () => {
    await withPair(
      { sampling: {} },
      async () => ({
        model: "client-model-1",
        role: "assistant",
        content: { type: "text", text: "Hello!" },
        stopReason: "endTurn",
      }),
      async (model, received) => {
        const deltas: string[] = [];
        const response = await model.complete(hello, { onText: (delta) => deltas.push(delta) });
        assert.deepEqual(response, {
          content: [{ type: "text", text: "Hello!" }],
          stopReason: "end_turn",
          usage: { inputTokens: 0, outputTokens: 0 },
          model: "client-model-1",
        });
        assert.deepEqual(deltas, ["Hello!"]);
        assert.equal(model.provider, "sampling");
        assert.deepEqual(received, [
          {
            messages: [{ role: "user", content: { type: "text", text: "Hi" } }],
            maxTokens: 500,
            systemPrompt: "Be brief.",
            modelPreferences: { hints: [{ name: "claude-sonnet" }] },
          },
        ]);
      },
    );
  });

  it("tools without sampling.tools are llm.sampling_unsupported, and nothing is sent", async () => {
    await withPair(
      { sampling: {} },
      async () => assert.fail("must not be asked"),
      async (model, received) => {
        await rejectsWithModelError(model.complete({ ...hello, tools }), "llm.sampling_unsupported");
        assert.equal(received.length, 0);
      },
    );
  });

  it("a tool-use round trip with a client that declared sampling.tools", async () => {
    await withPair(
      { sampling: { tools: {} } },
      async (params) => {
        const last = params.messages.at(-1);
        const blocks = Array.isArray(last?.content) ? last.content : [last?.content];
        const result = blocks.find((block) => block?.type === "tool_result");
        if (!result) {
          return {
            model: "client-model-2",
            role: "assistant",
            content: [
              { type: "text", text: "Looking up." },
              { type: "tool_use", id: "tu_1", name: "lookup", input: { word: "gateway" } },
            ],
            stopReason: "toolUse",
          };
        }
        return {
          model: "client-model-2",
          role: "assistant",
          content: { type: "text", text: `It means ${JSON.stringify(result.content)}` },
          stopReason: "endTurn",
        };
      },
      async (model, received) => {
        const first = await model.complete({ ...hello, tools });
        assert.equal(first.stopReason, "tool_use");
        assert.deepEqual(first.content, [
          { type: "text", text: "Looking up." },
          { type: "tool_use", id: "tu_1", name: "lookup", input: { word: "gateway" } },
        ]);
        assert.deepEqual(received[0]?.tools, [
          { name: "lookup", description: "Look a word up", inputSchema: { type: "object", properties: {} } },
        ]);
        assert.deepEqual(received[0]?.toolChoice, { mode: "auto" });
        const second = await model.complete({
          ...hello,
          tools,
          messages: [
            ...hello.messages,
            { role: "assistant", content: first.content },
            { role: "user", content: [{ type: "tool_result", toolUseId: "tu_1", content: "a door" }] },
          ],
        });
        assert.equal(second.stopReason, "end_turn");
        assert.deepEqual(received[1]?.messages.slice(1), [
          {
            role: "assistant",
            content: [
              { type: "text", text: "Looking up." },
              { type: "tool_use", id: "tu_1", name: "lookup", input: { word: "gateway" } },
            ],
          },
          {
            role: "user",
            content: { type: "tool_result", toolUseId: "tu_1", content: [{ type: "text", text: "a door" }] },
          },
        ]);
      },
    );
  });

  it("a client that did not declare sampling (or a connection that cannot ask) is llm.sampling_unsupported", async () => {
    await withPair(
      {},
      async () => assert.fail("must not be asked"),
      async (model) => {
        await rejectsWithModelError(model.complete(hello), "llm.sampling_unsupported");
      },
    );
    const noSender = createSamplingClient({ send: undefined, capabilities: { sampling: {} } });
    await rejectsWithModelError(noSender.complete(hello), "llm.sampling_unsupported");
  });

  it("a client that refuses is llm.unavailable with its message; an abort is llm.aborted", async () => {
    await withPair(
      { sampling: {} },
      async (params, signal) => {
        const first = params.messages[0]?.content;
        if (!Array.isArray(first) && first?.type === "text" && first.text === "refuse") {
          throw new Error("User rejected sampling request");
        }
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, 5_000);
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve(undefined);
          });
        });
        return { model: "m", role: "assistant", content: { type: "text", text: "late" } };
      },
      async (model) => {
        const refused = await rejectsWithModelError(
          model.complete({ messages: [{ role: "user", content: [{ type: "text", text: "refuse" }] }] }),
          "llm.unavailable",
        );
        assert.match(refused.message, /User rejected sampling request/);
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        const started = Date.now();
        await rejectsWithModelError(model.complete(hello, { signal: controller.signal }), "llm.aborted");
        assert.ok(Date.now() - started < 3_000);
      },
    );
  });
});
