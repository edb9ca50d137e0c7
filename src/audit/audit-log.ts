import type { Logger } from "../gateway/logger.ts";
import type { AuditEntry, Store } from "../store/types.ts";

export type AuditStderrLevel = "off" | "violations" | "executions" | "calls";

/** Records wait at most this long, or until this many are pending, before one transaction writes them. */
export const AUDIT_FLUSH_MS = 50;
export const AUDIT_FLUSH_ENTRIES = 500;

/** Outcome of a record written before its call ran, until the call ends. */
export const STARTED_OUTCOME = "started";

/** A record written by `begin`, to be completed by `complete`. */
export interface AuditTicket {
  id: number | undefined;
}

/**
 * Records executions and tool calls durably in the store and, at the
 * configured level, as JSON lines through the logger (stderr in the CLI).
 * A tool call is written by `begin` before it is sent, in its own commit (it
 * survives the gateway being killed mid-call), and completed by `complete`;
 * completions and other records are batched into one transaction (one fsync)
 * per flush, so a burst of a thousand calls does not stall the event loop;
 * `flush()` and `close()` write what is pending. A failing store never fails
 * the call it records: the error is logged.
 */
export class AuditLog {
  readonly #store: Store | undefined;
  readonly #level: AuditStderrLevel;
  readonly #write: ((line: string) => void) | undefined;
  readonly #logger: Logger;
  /** Records to append, or (with an id) completions of records already written. */
  #pending: Array<{ entry: AuditEntry; id?: number | undefined }> = [];
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

  /**
   * Writes `entry` (outcome "started") now, committed before this returns, so
   * the record exists even when the process dies while the call runs.
   */
  begin(entry: AuditEntry): AuditTicket {
    if (!this.#store) return { id: undefined };
    try {
      return { id: this.#store.appendAuditNow({ ...entry, outcome: STARTED_OUTCOME }) };
    } catch (error) {
      this.#logger.error(`audit log write failed: ${error instanceof Error ? error.message : String(error)}`);
      return { id: undefined };
    }
  }

  /** The call of `ticket` ended as `entry` says: its record is completed with the next flush. */
  complete(ticket: AuditTicket, entry: AuditEntry, violation: boolean): void {
    this.#enqueue(entry, ticket.id);
    this.#print(entry, violation);
  }

  record(entry: AuditEntry, violation: boolean): void {
    this.#enqueue(entry, undefined);
    this.#print(entry, violation);
  }

  /** Like `record`, but written now in its own commit (one per execution: cheap, and kept through a kill). */
  recordNow(entry: AuditEntry, violation: boolean): void {
    if (this.#store) {
      try {
        this.#store.appendAuditNow(entry);
      } catch (error) {
        this.#logger.error(
          `audit log write failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    this.#print(entry, violation);
  }

  #enqueue(entry: AuditEntry, id: number | undefined): void {
    if (!this.#store) return;
    this.#pending.push({ entry, id });
    if (this.#pending.length >= AUDIT_FLUSH_ENTRIES) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), AUDIT_FLUSH_MS).unref();
  }

  #print(entry: AuditEntry, violation: boolean): void {
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
        for (const { entry, id } of entries) {
          // A completion whose record is gone (pruned meanwhile) is appended whole.
          if (id === undefined || !store.updateAudit(id, entry)) store.appendAudit(entry);
        }
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
