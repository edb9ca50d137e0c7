import type { ExecutionTokens } from "./accounting.ts";
import { formatCount } from "./format-number.ts";

export interface TokenTotals {
  executions: number;
  returned: number;
  code: number;
  toolResults: number;
  keptInSandbox: number;
  directEstimate: number;
  /** `directEstimate - (returned + code)`: what code mode saved, negative when it cost more. */
  saved: number;
  /** `saved / directEstimate` in percent, one decimal; 0 before any tool was called. */
  savedPercent: number;
}

/** Running token totals of one session (or of the whole gateway). */
export class SessionTokenTotals {
  #executions = 0;
  #returned = 0;
  #code = 0;
  #toolResults = 0;
  #keptInSandbox = 0;
  #directEstimate = 0;

  add(tokens: ExecutionTokens): void {
    this.#executions++;
    this.#returned += tokens.returned;
    this.#code += tokens.code;
    this.#toolResults += tokens.toolResults;
    this.#keptInSandbox += tokens.keptInSandbox;
    this.#directEstimate += tokens.directEstimate;
  }

  get totals(): TokenTotals {
    const saved = this.#directEstimate - (this.#returned + this.#code);
    return {
      executions: this.#executions,
      returned: this.#returned,
      code: this.#code,
      toolResults: this.#toolResults,
      keptInSandbox: this.#keptInSandbox,
      directEstimate: this.#directEstimate,
      saved,
      savedPercent: this.#directEstimate > 0 ? Math.round((saved / this.#directEstimate) * 1000) / 10 : 0,
    };
  }
}

/**
 * One log line for `toolscript serve`, e.g. after each execution or at exit.
 * Never a negative saving: when code mode cost more than direct calls would
 * have (small results, few calls), the line says how much more.
 */
export function formatTokenTotals(label: string, totals: TokenTotals): string {
  return (
    `${label}: ${formatCount(totals.executions)} executions, ` +
    `${formatCount(totals.returned + totals.code)} tokens in context (code ${formatCount(totals.code)}, answers ${formatCount(totals.returned)}), ` +
    `${formatCount(totals.keptInSandbox)} kept in the sandbox; ${comparison(totals)}`
  );
}

function comparison(totals: TokenTotals): string {
  if (totals.directEstimate <= 0) return "no tool calls to compare with direct tool calling";
  const direct = `direct tool calling ~${formatCount(totals.directEstimate)}`;
  if (totals.saved >= 0) return `${direct} (saved ${totals.savedPercent}%)`;
  const more = Math.round((-totals.saved / totals.directEstimate) * 1000) / 10;
  return `${direct} (code mode cost ~${formatCount(-totals.saved)} tokens, ${more}%, more)`;
}
