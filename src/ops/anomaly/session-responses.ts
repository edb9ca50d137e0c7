import type { AnomalyKind } from "./types.ts";

/** A response in force on a session: which anomaly, why, until when (undefined: until restart). */
export interface ImposedResponse {
  kind: AnomalyKind;
  why: string;
  until: number | undefined;
}

interface SessionState {
  block?: ImposedResponse;
  approve?: ImposedResponse;
}

/** Sessions under a response at most; past it, the oldest imposed is dropped (noisy sessions are few). */
const MAX_SESSIONS = 10_000;

/**
 * The `approve` and `block` responses in force, per session key. Each lasts
 * `ttlMs` (0: until the gateway restarts; nothing here is persisted).
 */
export class SessionResponses {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #states = new Map<string, SessionState>();

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  impose(key: string, response: "approve" | "block", kind: AnomalyKind, why: string): void {
    const state = this.#states.get(key) ?? {};
    this.#states.delete(key);
    state[response] = { kind, why, until: this.#ttlMs === 0 ? undefined : this.#now() + this.#ttlMs };
    this.#states.set(key, state);
    if (this.#states.size > MAX_SESSIONS) {
      const oldest = this.#states.keys().next().value;
      if (oldest !== undefined) this.#states.delete(oldest);
    }
  }

  /** The block in force on the session, if any. */
  blocked(key: string): ImposedResponse | undefined {
    return this.#current(key, "block");
  }

  /** The approval requirement in force on the session's side-effecting calls, if any. */
  approvalRequired(key: string): ImposedResponse | undefined {
    return this.#current(key, "approve");
  }

  #current(key: string, response: "approve" | "block"): ImposedResponse | undefined {
    const state = this.#states.get(key);
    const imposed = state?.[response];
    if (!state || !imposed) return undefined;
    if (imposed.until !== undefined && imposed.until <= this.#now()) {
      delete state[response];
      if (!state.block && !state.approve) this.#states.delete(key);
      return undefined;
    }
    return imposed;
  }
}

/** How a response is lifted, for the messages that name it. */
export function liftedWhen(imposed: ImposedResponse): string {
  return imposed.until === undefined
    ? "lifted when the gateway restarts"
    : `lifted at ${new Date(imposed.until).toISOString()} (toolscript.anomalies.responseTtlSeconds) or when the gateway restarts`;
}

/** The session key of the detector and the responses: a session name is unique per client. */
export function anomalySessionKey(session: string | null, client: string | null | undefined): string {
  return `${client ?? ""}\0${session ?? ""}`;
}
