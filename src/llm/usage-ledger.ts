import type { ModelClient, ModelUsage } from "./types.ts";

/** USD per million tokens (`toolscript.llm.pricing`). */
export interface ModelPricing {
  inputPerMTok: number;
  outputPerMTok: number;
}

export interface UsageTotals {
  /** Requests that got an answer. */
  requests: number;
  /** Requests that failed (after the SDK's retries); they count no tokens. */
  failures: number;
  inputTokens: number;
  outputTokens: number;
  /** Present only when pricing is configured. */
  costUsd?: number;
}

/** Running totals of what a session's model requests used: the agent runner prints them, the gateway audits them. */
export class UsageLedger {
  readonly #pricing: ModelPricing | undefined;
  #requests = 0;
  #failures = 0;
  #input = 0;
  #output = 0;

  constructor(pricing?: ModelPricing) {
    this.#pricing = pricing;
  }

  record(usage: ModelUsage): void {
    this.#requests += 1;
    this.#input += usage.inputTokens;
    this.#output += usage.outputTokens;
  }

  recordFailure(): void {
    this.#failures += 1;
  }

  totals(): UsageTotals {
    const totals: UsageTotals = {
      requests: this.#requests,
      failures: this.#failures,
      inputTokens: this.#input,
      outputTokens: this.#output,
    };
    if (this.#pricing) {
      totals.costUsd =
        (this.#input * this.#pricing.inputPerMTok + this.#output * this.#pricing.outputPerMTok) / 1_000_000;
    }
    return totals;
  }
}

/** One line for a terminal: "3 model requests, 1,234 input + 567 output tokens, $0.0123". */
export function formatUsage(totals: UsageTotals): string {
  const n = (value: number) => value.toLocaleString("en-US");
  const parts = [
    `${n(totals.requests)} model request${totals.requests === 1 ? "" : "s"}`,
    `${n(totals.inputTokens)} input + ${n(totals.outputTokens)} output tokens`,
  ];
  if (totals.failures > 0) parts.push(`${n(totals.failures)} failed`);
  if (totals.costUsd !== undefined) parts.push(`$${totals.costUsd.toFixed(4)}`);
  return parts.join(", ");
}

/** The same client, recording every answer's usage (and every failure) in `ledger`. */
export function withUsage(client: ModelClient, ledger: UsageLedger): ModelClient {
  return {
    provider: client.provider,
    model: client.model,
    async complete(request, options) {
      try {
        const response = await client.complete(request, options);
        ledger.record(response.usage);
        return response;
      } catch (error) {
        ledger.recordFailure();
        throw error;
      }
    },
  };
}
