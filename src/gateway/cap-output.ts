import type { ExecutionResult } from "../sandbox/types.ts";

/**
 * A returned value larger than the limit becomes a LimitError, never a
 * silently cut value. Also says how many bytes the value was.
 */
export function capOutput(
  result: ExecutionResult,
  maxBytes: number,
): { result: ExecutionResult; bytes: number } {
  if (result.result === undefined) return { result, bytes: 0 };
  const bytes = Buffer.byteLength(JSON.stringify(result.result) ?? "");
  if (bytes <= maxBytes) return { result, bytes };
  const { result: _dropped, ...rest } = result;
  return {
    bytes,
    result: {
      ...rest,
      error: {
        kind: "runtime",
        name: "LimitError",
        code: "limit.output_bytes",
        message: `the returned value is ${bytes} bytes of JSON, over the limit of ${maxBytes} (sandbox.maxOutputBytes): return a smaller value, e.g. aggregate or slice it`,
      },
    },
  };
}
