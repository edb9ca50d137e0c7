import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { messageOf } from "../errors/message-of.ts";
import { UpstreamError } from "./errors.ts";
import { describeOversize, isMessageTooLarge } from "./oversized-message.ts";

export interface FailedCall {
  server: string;
  /** The tool, or the request's label (`resources/read x`). */
  what: string;
  error: unknown;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** Why the gateway closed the connection during the call, if it did (an oversized message). */
  closedBecause: string | undefined;
}

/** What the SDK threw for one request, as the UpstreamError a program or client sees. */
export function callError({
  server,
  what,
  error,
  timeoutMs,
  signal,
  closedBecause,
}: FailedCall): UpstreamError {
  const data = { server, tool: what };
  if (signal?.aborted) {
    return new UpstreamError("upstream.cancelled", `call to ${server}/${what} was cancelled`, data, {
      cause: error,
    });
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new UpstreamError(
      "upstream.timeout",
      `${server}/${what} did not answer within ${timeoutMs} ms`,
      data,
      {
        cause: error,
      },
    );
  }
  if ((error instanceof ProtocolError || error instanceof SdkError) && isMessageTooLarge(error.data)) {
    return new UpstreamError(
      "upstream.message_too_large",
      `server "${server}" answered ${what} with ${error.data.atLeast ? "more than " : ""}${describeOversize(error.data.bytes, error.data.limit)}; the answer was dropped`,
      { ...data, bytes: error.data.bytes, limit: error.data.limit },
      { cause: error },
    );
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return new UpstreamError(
      "upstream.unavailable",
      closedBecause
        ? `server "${server}" was restarted during ${what}: ${closedBecause}`
        : `server "${server}" closed the connection during ${what}`,
      data,
      { cause: error },
    );
  }
  return new UpstreamError("upstream.call_failed", `${server}/${what} failed: ${messageOf(error)}`, data, {
    cause: error,
  });
}
