// What a test scripts a model stub with, and the loopback HTTP server both stubs
// share. The stubs stand in for the hosted model APIs (unreachable here): each
// speaks its provider's wire protocol closely enough that the official SDK talks
// to it unchanged. A script is a function of the request, so one stub can drive a
// whole multi-turn tool-use conversation (answer from the last tool result).
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the stub received, as the SDK sent it. */
export interface StubRequest {
  /** 0 for the first request to this stub, 1 for the next (retries count). */
  index: number;
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The parsed JSON body. */
  // biome-ignore lint/suspicious/noExplicitAny: the body is whatever the SDK sent; tests assert on its shape.
  body: any;
}

export interface StubToolUse {
  /** Default: generated (`toolu_stub_<n>` / `call_stub_<n>`). */
  id?: string;
  name: string;
  input?: Record<string, unknown>;
  /** OpenAI only: the `arguments` string verbatim (to send something that is not JSON). */
  rawArguments?: string;
}

/** Neutral stop reasons the stubs translate (`tool_use` → `tool_calls`…); any other string is sent as it is. */
export type StubStopReason = "end_turn" | "tool_use" | "max_tokens" | (string & {});

export interface StubAnswer {
  /** The answer's text; an array is streamed as those deltas (a string is split in a few). */
  text?: string | string[];
  toolUses?: StubToolUse[];
  /** Default: `tool_use` with tool uses, else `end_turn`. */
  stopReason?: StubStopReason;
  usage?: { inputTokens: number; outputTokens: number };
  /** Default: the model the request named. */
  model?: string;
  /** Milliseconds before the answer starts (to exercise timeouts and aborts). */
  delayMs?: number;
}

export interface StubFailure {
  /** HTTP status of the error answer. */
  status: number;
  /** The provider's error type; default from the status. */
  errorType?: string;
  message?: string;
  /** E.g. `{ "retry-after-ms": "20" }` so a retry test is fast. */
  headers?: Record<string, string>;
  delayMs?: number;
}

export type StubReply = StubAnswer | StubFailure;

export type StubScript = (request: StubRequest) => StubReply | Promise<StubReply>;

export interface ModelStub {
  /** The base URL to configure (`toolscript.llm.baseUrl`): the host for Anthropic, `…/v1` for OpenAI. */
  readonly baseUrl: string;
  /** Every request received, in order. */
  readonly requests: StubRequest[];
  close(): Promise<void>;
}

export function isFailure(reply: StubReply): reply is StubFailure {
  return typeof (reply as StubFailure).status === "number";
}

/** The stream deltas of a text: the array as given, else the string in three pieces. */
export function textDeltas(text: string | string[] | undefined): string[] {
  if (text === undefined) return [];
  if (Array.isArray(text)) return text;
  if (text.length < 3) return [text];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}

/** A JSON text cut in three, as providers stream tool arguments. */
export function jsonPieces(json: string): string[] {
  return textDeltas(json).filter((piece) => piece !== "");
}

/** What a protocol adapter does with one request once the script has answered. */
export type StubResponder = (request: StubRequest, reply: StubReply, res: ServerResponse) => void;

/**
 * Starts a stub on 127.0.0.1 (port 0). `route` says which paths the protocol serves;
 * other paths get `notFound`.
 */
export async function startStubServer(options: {
  script: StubScript;
  isRoute: (method: string, path: string) => boolean;
  respond: StubResponder;
  notFound: (res: ServerResponse, path: string) => void;
  basePath: string;
}): Promise<ModelStub> {
  const requests: StubRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (!options.isRoute(req.method ?? "GET", path)) return options.notFound(res, path);
    const text = Buffer.concat(chunks).toString("utf8");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    const request: StubRequest = {
      index: requests.length,
      method: req.method ?? "GET",
      path,
      headers,
      body: text === "" ? undefined : JSON.parse(text),
    };
    requests.push(request);
    const reply = await options.script(request);
    const delay = reply.delayMs ?? 0;
    if (delay > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, delay);
        timers.add(timer);
        // The client gave up (timeout, abort): nothing left to answer.
        res.on("close", () => {
          clearTimeout(timer);
          timers.delete(timer);
          resolve();
        });
      });
    }
    if (res.destroyed || res.writableEnded) return;
    options.respond(request, reply, res);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`stub failure: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${options.basePath}`,
    requests,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes one SSE event (`event:` line only when named). */
export function writeEvent(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  res.write(`${event === undefined ? "" : `event: ${event}\n`}data: ${payload}\n\n`);
}

/** The tool results of the request's last user turn, whichever provider's shape: for scripts that answer from them. */
export function lastToolResults(
  body: unknown,
): Array<{ toolUseId: string; content: string; isError: boolean }> {
  // biome-ignore lint/suspicious/noExplicitAny: both providers' request bodies, read loosely.
  const messages = ((body as any)?.messages ?? []) as any[];
  const results: Array<{ toolUseId: string; content: string; isError: boolean }> = [];
  // OpenAI: the trailing `role: "tool"` messages.
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === "tool"; i--) {
    const message = messages[i];
    const content =
      typeof message.content === "string"
        ? message.content
        : (message.content ?? []).map((part: { text?: string }) => part.text ?? "").join("");
    results.unshift({ toolUseId: message.tool_call_id, content, isError: false });
  }
  if (results.length > 0) return results;
  // Anthropic: tool_result blocks of the last user message.
  const last = messages.at(-1);
  if (last?.role !== "user" || !Array.isArray(last.content)) return [];
  for (const block of last.content) {
    if (block?.type !== "tool_result") continue;
    const content =
      typeof block.content === "string"
        ? block.content
        : (block.content ?? []).map((part: { text?: string }) => part.text ?? "").join("");
    results.push({ toolUseId: block.tool_use_id, content, isError: block.is_error === true });
  }
  return results;
}
