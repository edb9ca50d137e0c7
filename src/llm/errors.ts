import { CodedError } from "../errors/coded-error.ts";
import type { ModelProvider } from "./types.ts";

export type ModelErrorCode =
  | "llm.not_configured"
  | "llm.no_api_key"
  | "llm.auth"
  | "llm.rate_limited"
  | "llm.unavailable"
  | "llm.bad_request"
  | "llm.bad_response"
  | "llm.timeout"
  | "llm.aborted"
  | "llm.sampling_unsupported";

export interface ModelErrorData {
  provider?: ModelProvider | undefined;
  model?: string | undefined;
  /** The HTTP status of the provider's last answer, when there was one. */
  status?: number | undefined;
  /** The provider's request id (`request-id` / `x-request-id`), for its support. */
  requestId?: string | undefined;
  [key: string]: unknown;
}

/** Any failure of a model request; `data` names the provider, model and HTTP status. */
export class ModelError extends CodedError<ModelErrorCode> {
  override readonly name = "ModelError";
  declare readonly data: ModelErrorData;

  constructor(
    code: ModelErrorCode,
    message: string,
    data: ModelErrorData = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, data, options);
  }
}

/** The ModelError for an HTTP error status that survived the SDK's retries. */
export function errorForStatus(
  status: number,
  providerMessage: string,
  data: ModelErrorData,
  cause: unknown,
): ModelError {
  const where = `${data.provider ?? "model"} (${data.model ?? "?"})`;
  const full = { ...data, status };
  if (status === 401 || status === 403) {
    return new ModelError(
      "llm.auth",
      `${where} refused the credentials (${status}): ${providerMessage}`,
      full,
      {
        cause,
      },
    );
  }
  if (status === 429) {
    return new ModelError(
      "llm.rate_limited",
      `${where} is rate limited (429) after retries: ${providerMessage}`,
      full,
      {
        cause,
      },
    );
  }
  if (status >= 500 || status === 408 || status === 409) {
    return new ModelError(
      "llm.unavailable",
      `${where} failed (${status}) after retries: ${providerMessage}`,
      full,
      {
        cause,
      },
    );
  }
  return new ModelError(
    "llm.bad_request",
    `${where} rejected the request (${status}): ${providerMessage}`,
    full,
    {
      cause,
    },
  );
}
