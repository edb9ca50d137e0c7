import type { SecretRedactor } from "../secrets/redactor.ts";
import { UpstreamError } from "../upstream/errors.ts";
import { BridgeError } from "./errors.ts";
import type { ToolCallMiddleware } from "./types.ts";

/**
 * Removes configured upstream secrets (`env` and `headers` values) from every
 * tool result and error *before* it enters the sandbox. Redacting only the
 * answer is not enough: code that sees a secret can return it reversed,
 * spaced out or as char codes, which no output filter recognises.
 */
export function secretRedactionMiddleware(redactor: SecretRedactor): ToolCallMiddleware {
  return async (call, next) => {
    // Checked per call: secrets such as OAuth tokens are added while the gateway runs.
    if (redactor.size === 0) return next(call);
    let value: unknown;
    try {
      value = await next(call);
    } catch (error) {
      throw redactError(redactor, error);
    }
    return redactor.redactValue(value);
  };
}

/** The same error with its message and data redacted; the cause (host-side detail) is dropped. */
function redactError(redactor: SecretRedactor, error: unknown): unknown {
  if (error instanceof BridgeError) {
    return new BridgeError(
      error.name,
      error.code,
      redactor.redact(error.message),
      redactor.redactValue(error.data),
    );
  }
  if (error instanceof UpstreamError) {
    return new UpstreamError(error.code, redactor.redact(error.message), redactor.redactValue(error.data));
  }
  if (error instanceof Error) {
    const copy = new Error(redactor.redact(error.message));
    copy.name = error.name;
    return copy;
  }
  return new Error(redactor.redact(String(error)));
}
