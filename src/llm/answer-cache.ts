import { createHash } from "node:crypto";
import type { CacheStore } from "../store/domains.ts";
import type { ModelCallOptions, ModelClient, ModelRequest, ModelResponse } from "./types.ts";

/** Cache namespace of model answers by exact request (store cache entries). */
export const ANSWER_CACHE = "llm.answer";

/** The store's cache entries: what the answers are kept in. */
export type AnswerCacheStore = Pick<CacheStore, "get" | "put">;

/**
 * A model client that answers a request it has seen (same provider, model and
 * request, byte for byte) from the store for `ttlMs`, without asking the model:
 * the same task generated twice, or by two replicas, costs one request. A hit
 * reports no usage (nothing was spent) and streams its text in one piece.
 */
export function cachedModelClient(client: ModelClient, store: AnswerCacheStore, ttlMs: number): ModelClient {
  return {
    provider: client.provider,
    model: client.model,
    async complete(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
      const key = createHash("sha256")
        .update(JSON.stringify([client.provider, client.model, request]))
        .digest("hex");
      const hit = await store.get(ANSWER_CACHE, key);
      if (hit !== undefined) {
        const cached = JSON.parse(hit) as ModelResponse;
        const text = cached.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
        if (text !== "") options?.onText?.(text);
        return { ...cached, usage: { inputTokens: 0, outputTokens: 0 } };
      }
      const response = await client.complete(request, options);
      await store.put(ANSWER_CACHE, key, JSON.stringify(response), ttlMs);
      return response;
    },
  };
}
