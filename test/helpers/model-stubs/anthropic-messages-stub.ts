// Anthropic's Messages API on loopback: `POST /v1/messages`, a JSON answer or,
// with `stream: true`, the SSE event sequence the API sends (message_start,
// content_block_start/delta/stop with text_delta and input_json_delta split over
// several deltas, message_delta with stop_reason and usage, message_stop). Errors
// are `{ type: "error", error: { type, message } }` with the API's statuses and a
// `request-id` header.
import type { ServerResponse } from "node:http";
import {
  isFailure,
  jsonPieces,
  type ModelStub,
  type StubAnswer,
  type StubFailure,
  type StubRequest,
  type StubScript,
  startStubServer,
  textDeltas,
  writeEvent,
} from "./script.ts";

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

const STOP_REASONS: Record<string, string> = {
  end_turn: "end_turn",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
};

export function startAnthropicStub(script: StubScript): Promise<ModelStub> {
  let ids = 0;
  const nextId = (prefix: string) => `${prefix}_stub_${++ids}`;

  const sendError = (res: ServerResponse, failure: StubFailure) => {
    const requestId = nextId("req");
    res.writeHead(failure.status, {
      "content-type": "application/json",
      "request-id": requestId,
      ...failure.headers,
    });
    res.end(
      JSON.stringify({
        type: "error",
        error: {
          type: failure.errorType ?? ERROR_TYPES[failure.status] ?? "api_error",
          message: failure.message ?? `stub error ${failure.status}`,
        },
        request_id: requestId,
      }),
    );
  };

  const blocksOf = (answer: StubAnswer) => [
    ...(answer.text === undefined ? [] : [{ type: "text", text: textDeltas(answer.text).join("") }]),
    ...(answer.toolUses ?? []).map((use) => ({
      type: "tool_use",
      id: use.id ?? nextId("toolu"),
      name: use.name,
      input: use.input ?? {},
    })),
  ];

  const usageOf = (answer: StubAnswer) => ({
    input_tokens: answer.usage?.inputTokens ?? 10,
    output_tokens: answer.usage?.outputTokens ?? 5,
  });

  const stopOf = (answer: StubAnswer) => {
    const reason = answer.stopReason ?? ((answer.toolUses?.length ?? 0) > 0 ? "tool_use" : "end_turn");
    return STOP_REASONS[reason] ?? reason;
  };

  const respond = (request: StubRequest, reply: StubAnswer | StubFailure, res: ServerResponse) => {
    if (isFailure(reply)) return sendError(res, reply);
    const model = reply.model ?? request.body?.model ?? "claude-stub";
    const id = nextId("msg");
    const blocks = blocksOf(reply);
    const usage = usageOf(reply);
    const headers = { "request-id": nextId("req") };
    if (request.body?.stream !== true) {
      res.writeHead(200, { "content-type": "application/json", ...headers });
      res.end(
        JSON.stringify({
          id,
          type: "message",
          role: "assistant",
          model,
          content: blocks,
          stop_reason: stopOf(reply),
          stop_sequence: null,
          usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
    writeEvent(
      res,
      {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
        },
      },
      "message_start",
    );
    writeEvent(res, { type: "ping" }, "ping");
    blocks.forEach((block, index) => {
      if (block.type === "text") {
        writeEvent(
          res,
          { type: "content_block_start", index, content_block: { type: "text", text: "" } },
          "content_block_start",
        );
        for (const text of textDeltas(reply.text)) {
          writeEvent(
            res,
            { type: "content_block_delta", index, delta: { type: "text_delta", text } },
            "content_block_delta",
          );
        }
      } else {
        const { input, ...start } = block as { input: unknown; type: string; id: string; name: string };
        writeEvent(
          res,
          { type: "content_block_start", index, content_block: { ...start, input: {} } },
          "content_block_start",
        );
        for (const partial_json of jsonPieces(JSON.stringify(input))) {
          writeEvent(
            res,
            { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } },
            "content_block_delta",
          );
        }
      }
      writeEvent(res, { type: "content_block_stop", index }, "content_block_stop");
    });
    writeEvent(
      res,
      {
        type: "message_delta",
        delta: { stop_reason: stopOf(reply), stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
      "message_delta",
    );
    writeEvent(res, { type: "message_stop" }, "message_stop");
    res.end();
  };

  return startStubServer({
    script,
    basePath: "",
    isRoute: (method, path) => method === "POST" && path === "/v1/messages",
    respond,
    notFound: (res, path) => sendError(res, { status: 404, message: `Not found: ${path}` }),
  });
}
