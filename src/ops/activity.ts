import type { ExecutionTokens } from "../output/accounting.ts";
import type { AuditEntry } from "../store/types.ts";

/** What happened in the gateway, as it happens, for live consumers (metrics, anomaly detection, the dashboard). */
export type ActivityEvent =
  /** A final audit record: an execution, a tool call, a model request, an anomaly. */
  | { type: "audit"; entry: AuditEntry }
  /** The token accounting of an answered execution. */
  | {
      type: "tokens";
      session: string;
      client: string | null;
      time: number;
      tokens: ExecutionTokens;
      /** Personal data replaced by tokens in the answer, by kind (EMAIL, PHONE, ...). */
      piiTokens: Record<string, number>;
    };

export type ActivityListener = (event: ActivityEvent) => void;

/**
 * A synchronous fan-out of the gateway's activity. A listener that throws is
 * reported and the others still hear the event: watching the gateway must
 * never break what it watches.
 */
export class ActivityFeed {
  readonly #listeners = new Set<ActivityListener>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  /** Adds a listener; returns its removal. */
  on(listener: ActivityListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: ActivityEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }
}
