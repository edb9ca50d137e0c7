// OpenAI's Chat Completions on loopback: `POST /v1/chat/completions`, a JSON
// answer or, with `stream: true`, `data: {chunk}` lines ending with
// `data: [DONE]`: text deltas, tool_calls deltas split over chunks (id and name
// first, then the arguments in pieces), the finish_reason chunk, and a final
// usage chunk (empty `choices`) when `stream_options.include_usage`. Errors are
// `{ error: { message, type, param, code } }` with an `x-request-id` header.
// Ollama, vLLM and LM Studio serve the same protocol, so this also stands in for them.
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

const ERRORS: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "requests", code: "rate_limit_exceeded" },
  500: { type: "server_error", code: null },
  503: { type: "server_error", code: null },
};

const FINISH_REASONS: Record<string, string> = {
  end_turn: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
};

export function startOpenAIStub(script: StubScript): Promise<ModelStub> {
  let ids = 0;
  const nextId = (prefix: string) => `${prefix}-stub-${++ids}`;

  const sendError = (res: ServerResponse, failure: StubFailure) => {
    const known = ERRORS[failure.status] ?? { type: "server_error", code: null };
    res.writeHead(failure.status, {
      "content-type": "application/json",
      "x-request-id": nextId("req"),
      ...failure.headers,
    });
    res.end(
      JSON.stringify({
        error: {
          message: failure.message ?? `stub error ${failure.status}`,
          type: failure.errorType ?? known.type,
          param: null,
          code: known.code,
        },
      }),
    );
  };

  const toolCallsOf = (answer: StubAnswer) =>
    (answer.toolUses ?? []).map((use) => ({
      id: use.id ?? nextId("call"),
      type: "function" as const,
      function: { name: use.name, arguments: use.rawArguments ?? JSON.stringify(use.input ?? {}) },
    }));

  const finishOf = (answer: StubAnswer) => {
    const reason = answer.stopReason ?? ((answer.toolUses?.length ?? 0) > 0 ? "tool_use" : "end_turn");
    return FINISH_REASONS[reason] ?? reason;
  };

  const usageOf = (answer: StubAnswer) => {
    const prompt = answer.usage?.inputTokens ?? 10;
    const completion = answer.usage?.outputTokens ?? 5;
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  };

  const respond = (request: StubRequest, reply: StubAnswer | StubFailure, res: ServerResponse) => {
    if (isFailure(reply)) return sendError(res, reply);
    const model = reply.model ?? request.body?.model ?? "gpt-stub";
    const id = nextId("chatcmpl");
    const created = Math.floor(Date.now() / 1000);
    const toolCalls = toolCallsOf(reply);
    const text = reply.text === undefined ? null : textDeltas(reply.text).join("");
    const headers = { "x-request-id": nextId("req") };
    if (request.body?.stream !== true) {
      res.writeHead(200, { "content-type": "application/json", ...headers });
      res.end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created,
          model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: text,
                refusal: null,
                ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
              },
              logprobs: null,
              finish_reason: finishOf(reply),
            },
          ],
          usage: usageOf(reply),
          system_fingerprint: null,
        }),
      );
      return;
    }
    const includeUsage = request.body?.stream_options?.include_usage === true;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage && { usage: null }),
    });
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
    writeEvent(res, chunk({ role: "assistant", content: "", refusal: null }));
    for (const content of textDeltas(reply.text)) writeEvent(res, chunk({ content }));
    toolCalls.forEach((call, index) => {
      writeEvent(
        res,
        chunk({
          tool_calls: [
            { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
          ],
        }),
      );
      for (const piece of jsonPieces(call.function.arguments)) {
        writeEvent(res, chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    writeEvent(res, chunk({}, finishOf(reply)));
    if (includeUsage) {
      writeEvent(res, {
        id,
        object: "chat.completion.chunk",
        created,
        model,
        system_fingerprint: null,
        choices: [],
        usage: usageOf(reply),
      });
    }
    writeEvent(res, "[DONE]");
    res.end();
  };

  return startStubServer({
    script,
    basePath: "/v1",
    isRoute: (method, path) => method === "POST" && path === "/v1/chat/completions",
    respond,
    notFound: (res, path) => sendError(res, { status: 404, message: `Unknown request URL: POST ${path}` }),
  });
}
