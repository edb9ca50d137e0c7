import { errorForStatus, ModelError, type ModelErrorData } from "./errors.ts";

// biome-ignore lint/suspicious/noExplicitAny: constructors of the SDKs' error classes, whatever their arguments.
type ErrorClass = abstract new (...args: any[]) => Error;

/**
 * The error classes both official SDKs export under the same names (they share
 * a code generator): enough to tell an abort from a timeout from an HTTP status.
 */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

interface ApiErrorFields {
  status?: number;
  requestID?: string | null;
  /** Anthropic: `error.message` of the body. */
  apiMessage?: string | null;
  /** OpenAI: the body's `error` object. */
  error?: unknown;
}

/** The provider's own words for an HTTP error, without the SDK's "400 {json}" wrapping. */
function providerMessage(error: Error & ApiErrorFields): string {
  if (typeof error.apiMessage === "string" && error.apiMessage !== "") return error.apiMessage;
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  if (typeof body?.message === "string") return body.message;
  if (typeof body?.error?.message === "string") return body.error.message;
  return error.message;
}

/** A ModelError for whatever an SDK call threw (after the SDK's own retries). */
export function fromSdkError(
  error: unknown,
  classes: SdkErrorClasses,
  data: ModelErrorData,
  signal: AbortSignal | undefined,
): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof classes.APIConnectionTimeoutError) {
    return new ModelError("llm.timeout", `${data.provider} (${data.model}) did not answer in time`, data, {
      cause: error,
    });
  }
  if (error instanceof classes.APIUserAbortError || signal?.aborted) {
    return new ModelError("llm.aborted", `the ${data.provider} request was aborted`, data, { cause: error });
  }
  if (error instanceof classes.APIConnectionError) {
    return new ModelError(
      "llm.unavailable",
      `${data.provider} (${data.model}) could not be reached after retries: ${(error as Error).message}`,
      data,
      { cause: error },
    );
  }
  if (error instanceof classes.APIError) {
    const fields = error as Error & ApiErrorFields;
    if (typeof fields.status === "number") {
      const requestId = fields.requestID ?? undefined;
      return errorForStatus(
        fields.status,
        providerMessage(fields),
        { ...data, ...(requestId && { requestId }) },
        error,
      );
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(
    "llm.bad_response",
    `${data.provider} (${data.model}) answered unexpectedly: ${message}`,
    data,
    {
      cause: error,
    },
  );
}
