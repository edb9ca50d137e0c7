import type { Env } from "../config/interpolate.ts";
import type { LlmSettings } from "../config/settings.ts";
import { createAnthropicClient } from "./anthropic-client.ts";
import { ModelError } from "./errors.ts";
import { createOpenAIClient } from "./openai-client.ts";
import { createSamplingClient, type SamplingClientOptions } from "./sampling-client.ts";
import type { ModelClient } from "./types.ts";

/** Where a hosted provider's key comes from when `toolscript.llm.apiKey` is absent. */
export const API_KEY_VARIABLES = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY" } as const;

export interface CreateModelClientOptions {
  /** Variables the default keys are read from. Passed explicitly: only the CLI reads `process.env`. */
  env: Env;
  /** Without `toolscript.llm`: the connected MCP client's sampling, when there is one. */
  sampling?: SamplingClientOptions | undefined;
}

/**
 * The ModelClient `toolscript.llm` describes; without it, MCP sampling (when
 * offered) else `llm.not_configured`. The provider SDKs load on the first
 * request, so a gateway without a model never loads them.
 */
export function createModelClient(
  settings: LlmSettings | undefined,
  options: CreateModelClientOptions,
): ModelClient {
  if (settings === undefined) {
    if (options.sampling) return createSamplingClient(options.sampling);
    throw new ModelError(
      "llm.not_configured",
      "no model is configured: add toolscript.llm { provider, model } to the config",
      {},
    );
  }
  const variable = API_KEY_VARIABLES[settings.provider];
  const fromEnv = options.env[variable];
  const apiKey = settings.apiKey ?? (fromEnv === undefined || fromEnv === "" ? undefined : fromEnv);
  // A local OpenAI-compatible server (baseUrl) needs no key; the hosted APIs do.
  const keyOptional = settings.provider === "openai" && settings.baseUrl !== undefined;
  if (apiKey === undefined && !keyOptional) {
    throw new ModelError(
      "llm.no_api_key",
      `no API key for ${settings.provider}: set toolscript.llm.apiKey (e.g. "\${${variable}}") or the ${variable} environment variable`,
      { provider: settings.provider, model: settings.model, variable },
    );
  }
  const clientOptions = {
    model: settings.model,
    apiKey,
    baseUrl: settings.baseUrl,
    maxTokens: settings.maxTokens,
    maxRetries: settings.maxRetries,
    timeoutMs: settings.timeoutMs,
  };
  return settings.provider === "anthropic"
    ? createAnthropicClient(clientOptions)
    : createOpenAIClient(clientOptions);
}
