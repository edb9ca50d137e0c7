import { boundExecution, DEFAULT_EXECUTION_BOUNDS } from "../output/bound-execution.ts";
import { jsonBytesUpTo } from "../output/bound-value.ts";
import { formatCount } from "../output/format-number.ts";
import type { ExecutionResult } from "../sandbox/types.ts";

/**
 * A returned value larger than the limit becomes a LimitError, never a
 * silently cut value; error texts and logs are cut to their hard caps. Also
 * says how many bytes the value was (a lower bound when over the limit: a
 * 100 MB value is measured only until it passes the limit, never copied).
 */
export function capOutput(
  result: ExecutionResult,
  maxBytes: number,
): { result: ExecutionResult; bytes: number } {
  // The value is bounded here by maxBytes; the rest by the hard caps, before audit, redaction or budget read them.
  const bounded = boundExecution(result, {
    ...DEFAULT_EXECUTION_BOUNDS,
    valueBytes: Number.POSITIVE_INFINITY,
  }).result;
  if (bounded.result === undefined) return { result: bounded, bytes: 0 };
  const measured = jsonBytesUpTo(bounded.result, maxBytes);
  if (!measured.over) return { result: bounded, bytes: measured.bytes };
  const { result: _dropped, ...rest } = bounded;
  return {
    bytes: measured.bytes,
    result: {
      ...rest,
      error: {
        kind: "runtime",
        name: "LimitError",
        code: "limit.output_bytes",
        message: `the returned value is more than ${formatCount(maxBytes)} bytes of JSON, over the limit (sandbox.maxOutputBytes): return a smaller value, e.g. aggregate or slice it`,
      },
    },
  };
}
