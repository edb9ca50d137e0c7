import type { Logger } from "../gateway/logger.ts";
import type { AuditEntry, Store } from "../store/types.ts";

export type AuditStderrLevel = "off" | "violations" | "executions" | "calls";

/** Records wait at most this long, or until this many are pending, before one transaction writes them. */
export const AUDIT_FLUSH_MS = 50;
export const AUDIT_FLUSH_ENTRIES = 500;

/**
 * Records executions and tool calls durably in the store and, at the
 * configured level, as JSON lines through the logger (stderr in the CLI). Writes are batched into one
 * transaction (one fsync) per flush, so a burst of a thousand calls does not
 * stall the event loop; `flush()` and `close()` write what is pending. A
 * failing store never fails the call it records: the error is logged.
 */
export class AuditLog {
  readonly #store: Store | undefined;
  readonly #level: AuditStderrLevel;
  readonly #write: ((line: string) => void) | undefined;
  readonly #logger: Logger;
  #pending: AuditEntry[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(options: {
    store: Store | undefined;
    level: AuditStderrLevel;
    logger: Logger;
    write?: (line: string) => void;
  }) {
    this.#store = options.store;
    this.#level = options.level;
    this.#logger = options.logger;
    this.#write = options.write ?? options.logger.audit?.bind(options.logger);
  }

  record(entry: AuditEntry, violation: boolean): void {
    if (this.#store) {
      this.#pending.push(entry);
      if (this.#pending.length >= AUDIT_FLUSH_ENTRIES) this.flush();
      else this.#timer ??= setTimeout(() => this.flush(), AUDIT_FLUSH_MS).unref();
    }
    if (this.#write && this.#shouldPrint(entry, violation)) {
      this.#write(
        JSON.stringify({ audit: entry.kind ?? "tool_call", ...entry, violation: violation || undefined }),
      );
    }
  }

  /** Writes every pending record now, in one transaction. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const entries = this.#pending;
    if (entries.length === 0 || !this.#store) return;
    this.#pending = [];
    const store = this.#store;
    try {
      store.batch(() => {
        for (const entry of entries) store.appendAudit(entry);
      });
    } catch (error) {
      this.#logger.error(
        `audit log write of ${entries.length} records failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  #shouldPrint(entry: AuditEntry, violation: boolean): boolean {
    switch (this.#level) {
      case "off":
        return false;
      case "violations":
        return violation;
      case "executions":
        return violation || entry.kind === "execution";
      case "calls":
        return true;
    }
  }
}
