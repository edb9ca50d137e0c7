import type { ModelClient } from "../llm/types.ts";
import type { AuditLog } from "./audit-log.ts";
import { sha256Hex } from "./sha256-hex.ts";

export interface ModelCallContext {
  session: string;
  client?: string | null | undefined;
  /** What asked the model, e.g. `solve_task`. */
  purpose: string;
}

/**
 * The same model client, each request recorded in the audit log (kind
 * `model_call`: provider as server, model as tool, the request's digest, tokens
 * in and out): what a model was asked for on the gateway's behalf, and what it cost.
 */
export function auditedModel(client: ModelClient, log: AuditLog, context: ModelCallContext): ModelClient {
  return {
    provider: client.provider,
    model: client.model,
    async complete(request, options) {
      const started = performance.now();
      const json = JSON.stringify(request);
      const record = (outcome: string, model: string, detail: Record<string, unknown>) =>
        log.record(
          {
            kind: "model_call",
            time: Date.now(),
            session: context.session,
            ...(context.client != null && { client: context.client }),
            server: client.provider,
            tool: model,
            argsDigest: sha256Hex(json),
            argsBytes: Buffer.byteLength(json),
            outcome,
            durationMs: Math.round((performance.now() - started) * 100) / 100,
            detail: { purpose: context.purpose, ...detail },
          },
          false,
        );
      try {
        const response = await client.complete(request, options);
        record("ok", response.model, {
          inputTokens: response.usage.inputTokens,
          outputTokens: response.usage.outputTokens,
          stopReason: response.stopReason,
        });
        return response;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        record(typeof code === "string" ? code : "error", client.model, {});
        throw error;
      }
    },
  };
}
