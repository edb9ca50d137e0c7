import type { Env } from "../config/interpolate.ts";
import type { LlmSettings } from "../config/settings.ts";
import { createModelClient } from "../llm/create-model-client.ts";
import type { ModelClient } from "../llm/types.ts";

/**
 * The model `toolscript.llm` configures, made on its first request: a missing
 * API key fails that request (`llm.no_api_key`, naming the key), not the
 * gateway's start, and a gateway whose agents never ask a model never loads an SDK.
 */
export function configuredModel(settings: LlmSettings, env: Env): ModelClient {
  let client: ModelClient | undefined;
  return {
    provider: settings.provider,
    model: settings.model,
    complete(request, options) {
      client ??= createModelClient(settings, { env });
      return client.complete(request, options);
    },
  };
}
