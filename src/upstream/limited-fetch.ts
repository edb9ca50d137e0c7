import { type FetchLike, INTERNAL_ERROR, ProtocolError } from "@modelcontextprotocol/client";
import { BoundedLineReader } from "./line-reader.ts";
import {
  describeOversize,
  MESSAGE_TOO_LARGE,
  type MessageTooLargeData,
  oversizedReply,
} from "./oversized-message.ts";

const encoder = new TextEncoder();

/**
 * `fetch` for the HTTP client transports that bounds each message a remote
 * server sends: a JSON body over `maxBytes` fails its request; in an event
 * stream, an event whose data line is over `maxBytes` is replaced by an error
 * answer to the call it answers (the SDK would otherwise hold it whole in memory).
 */
export function limitedFetch(maxBytes: number, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const type = response.headers.get("content-type") ?? "";
    const limiter = type.includes("text/event-stream") ? eventStreamLimiter(maxBytes) : bodyLimiter(maxBytes);
    return new Response(response.body.pipeThrough(limiter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function bodyLimiter(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let bytes = 0;
  return new TransformStream({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      if (bytes <= maxBytes) {
        controller.enqueue(chunk);
        return;
      }
      const data: MessageTooLargeData = { reason: MESSAGE_TOO_LARGE, bytes, limit: maxBytes, atLeast: true };
      controller.error(
        new ProtocolError(INTERNAL_ERROR, `the answer is over ${describeOversize(bytes, maxBytes)}`, data),
      );
    },
  });
}

/**
 * Passes server-sent events through line by line (the SDK parses them), with
 * no line held beyond `maxBytes`. An oversized `data:` line becomes the data
 * of an error answer to the same request id.
 */
function eventStreamLimiter(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let out: TransformStreamDefaultController<Uint8Array> | undefined;
  let failed = false;
  const reader = new BoundedLineReader(maxBytes, {
    line: (text) => out?.enqueue(encoder.encode(`${text}\n`)),
    oversized: (line) => {
      const json = { ...line, head: line.head.replace(/^data: ?/, "") };
      const reply = line.head.startsWith("data:") ? oversizedReply(json, maxBytes) : undefined;
      if (reply) {
        out?.enqueue(encoder.encode(`data: ${JSON.stringify(reply)}\n`));
        return;
      }
      failed = true;
      out?.error(
        new Error(
          `the server sent an event of ${describeOversize(line.bytes, maxBytes)} that answers no call`,
        ),
      );
    },
  });
  return new TransformStream({
    transform(chunk, controller) {
      out = controller;
      if (!failed) reader.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    },
  });
}
