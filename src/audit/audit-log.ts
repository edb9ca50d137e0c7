import { messageOf } from "../errors/message-of.ts";
import type { Logger } from "../gateway/logger.ts";
import type { AuditEntry, AuditJournal, Store } from "../store/types.ts";

export type AuditStderrLevel = "off" | "violations" | "executions" | "calls";

/** Records wait at most this long, or until this many are pending, before one transaction writes them. */
export const AUDIT_FLUSH_MS = 50;
export const AUDIT_FLUSH_ENTRIES = 500;
/** Calls begun in the journal only that failed flushes keep for the next one, at most; beyond, the oldest are dropped. */
export const AUDIT_RETRY_ENTRIES = 10_000;

/** Outcome of a record written before its call ran, until the call ends. */
export const STARTED_OUTCOME = "started";

/** A record written by `begin`, to be completed by `complete`. */
export interface AuditTicket {
  /** Its row in the store, once written there; undefined while it is only in the journal. */
  id: number | undefined;
}

/** What a flush writes: a new record, or (ticket with an id) the completion of one already written. */
interface PendingRecord {
  entry: AuditEntry;
  ticket?: AuditTicket | undefined;
  /** The "started" record of a call begun in the journal only, kept should the flush fail. */
  started?: AuditEntry | undefined;
}

/**
 * Records executions and tool calls durably in the store and, at the
 * configured level, as JSON lines through the logger (stderr in the CLI).
 *
 * A tool call is on disk before it is sent: `begin` appends it to this
 * process's audit journal (one write, no fsync; see AuditJournalFile), or
 * commits it to the store when there is no journal. `complete` queues its
 * final record; every flush (at most AUDIT_FLUSH_MS or AUDIT_FLUSH_ENTRIES
 * away) writes in one transaction each completed call as one row, a "started"
 * row for each call still running (completed by a later flush), and the
 * journal's mark, then empties the journal. If the process dies, the next
 * store opened on its directory copies the journal as "started" records.
 * A failing store or journal never fails the call it records: the error is logged once.
 */
export class AuditLog {
  readonly #store: Store | undefined;
  readonly #journal: AuditJournal | undefined;
  readonly #level: AuditStderrLevel;
  readonly #write: ((line: string) => void) | undefined;
  readonly #observe: ((entry: AuditEntry) => void) | undefined;
  readonly #logger: Logger;
  #pending: PendingRecord[] = [];
  /** Calls begun in the journal only: the next flush writes their "started" rows (if still running). */
  readonly #journaledOnly = new Map<AuditTicket, AuditEntry>();
  /** The journal failed once: calls are committed to the store directly from then on. */
  #journalBroken = false;
  /** Failures already logged, until writes succeed again. */
  readonly #reported = new Set<"journal" | "begin" | "flush" | "truncate">();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: {
    store: Store | undefined;
    level: AuditStderrLevel;
    logger: Logger;
    write?: (line: string) => void;
    /** Told of every final record (not "started" ones): the metrics count what the audit records. */
    observe?: (entry: AuditEntry) => void;
  }) {
    this.#observe = options.observe;
    this.#store = options.store;
    this.#level = options.level;
    this.#logger = options.logger;
    this.#write = options.write ?? options.logger.audit?.bind(options.logger);
    try {
      this.#journal = options.store?.openAuditJournal();
    } catch (error) {
      this.#report("journal", `cannot open the audit journal: ${messageOf(error)}`);
    }
  }

  /**
   * Puts `entry` (outcome "started") on disk before this returns, so the
   * record exists even when the process dies while the call runs.
   */
  begin(entry: AuditEntry): AuditTicket {
    const store = this.#store;
    if (!store) return { id: undefined };
    const started = entry.outcome === STARTED_OUTCOME ? entry : { ...entry, outcome: STARTED_OUTCOME };
    if (this.#journal && !this.#journalBroken) {
      try {
        this.#journal.append(started);
        const ticket: AuditTicket = { id: undefined };
        this.#journaledOnly.set(ticket, started);
        this.#timer ??= setTimeout(() => this.flush(), AUDIT_FLUSH_MS).unref();
        return ticket;
      } catch (error) {
        this.#journalBroken = true;
        this.#report(
          "journal",
          `audit journal write failed: ${messageOf(error)}; tool calls are committed to the store one by one instead`,
        );
      }
    }
    try {
      return { id: store.appendAuditNow(started) };
    } catch (error) {
      this.#report("begin", `audit log write failed: ${messageOf(error)}`);
      return { id: undefined };
    }
  }

  /** The call of `ticket` ended as `entry` says: its record is written (or completed) with the next flush. */
  complete(ticket: AuditTicket, entry: AuditEntry, violation: boolean): void {
    // Journaled only: the flush writes the final record instead of "started" then an update.
    const started = this.#journaledOnly.get(ticket);
    if (started) this.#journaledOnly.delete(ticket);
    this.#enqueue({ entry, ticket, started });
    this.#print(entry, violation);
  }

  record(entry: AuditEntry, violation: boolean): void {
    this.#enqueue({ entry });
    this.#print(entry, violation);
  }

  /** Like `record`, but written now in its own commit (one per execution: cheap, and kept through a kill). */
  recordNow(entry: AuditEntry, violation: boolean): void {
    if (this.#store) {
      try {
        this.#store.appendAuditNow(entry);
      } catch (error) {
        this.#report("begin", `audit log write failed: ${messageOf(error)}`);
      }
    }
    this.#print(entry, violation);
  }

  #enqueue(record: PendingRecord): void {
    if (!this.#store) return;
    this.#pending.push(record);
    if (this.#pending.length >= AUDIT_FLUSH_ENTRIES) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), AUDIT_FLUSH_MS).unref();
  }

  #print(entry: AuditEntry, violation: boolean): void {
    this.#observe?.(entry);
    if (this.#write && this.#shouldPrint(entry, violation)) {
      this.#write(
        JSON.stringify({ audit: entry.kind ?? "tool_call", ...entry, violation: violation || undefined }),
      );
    }
  }

  /** Writes every pending record, and a "started" row for each call still running, now in one transaction. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const store = this.#store;
    if (!store || (this.#pending.length === 0 && this.#journaledOnly.size === 0)) return;
    const records = this.#pending;
    this.#pending = [];
    const running = [...this.#journaledOnly];
    const journal = this.#journal;
    let ids: number[];
    try {
      ids = store.batch(() => {
        for (const { entry, ticket } of records) {
          // A completion whose record is gone (pruned meanwhile) is appended whole.
          if (ticket?.id === undefined || !store.updateAudit(ticket.id, entry)) store.appendAudit(entry);
        }
        const ids = running.map(([, entry]) => store.appendAudit(entry));
        journal?.markFlushed();
        return ids;
      });
    } catch (error) {
      this.#keepStarted(records, error);
      return;
    }
    this.#reported.delete("flush");
    this.#reported.delete("begin");
    // Ids only once committed: a rolled-back batch leaves the calls journaled only, for the next flush.
    running.forEach(([ticket], index) => {
      ticket.id = ids[index];
    });
    this.#journaledOnly.clear();
    try {
      journal?.truncate();
    } catch (error) {
      // Harmless but for the file's size: its mark says its lines are all in the store.
      this.#report("truncate", `cannot empty the audit journal: ${messageOf(error)}`);
    }
  }

  /**
   * After a failed flush (its batch rolled back): the calls begun in the
   * journal only keep their "started" record for the next flush, as when
   * `begin` committed it itself; their completions and other records are
   * dropped, as before the journal. At most AUDIT_RETRY_ENTRIES wait.
   */
  #keepStarted(records: PendingRecord[], error: unknown): void {
    for (const { ticket, started } of records)
      if (ticket && started) this.#journaledOnly.set(ticket, started);
    let dropped = 0;
    for (const ticket of this.#journaledOnly.keys()) {
      if (this.#journaledOnly.size <= AUDIT_RETRY_ENTRIES) break;
      this.#journaledOnly.delete(ticket);
      dropped++;
    }
    const loss =
      dropped > 0 ? `; ${dropped} started calls dropped (more than ${AUDIT_RETRY_ENTRIES} waiting)` : "";
    if (dropped > 0) this.#reported.delete("flush");
    this.#report(
      "flush",
      `audit log write of ${records.length} records failed: ${messageOf(error)}; the calls still running or only journaled are retried with the next flush${loss}`,
    );
  }

  /** Logs `message` unless a failure of this kind was logged since writes last succeeded. */
  #report(kind: "journal" | "begin" | "flush" | "truncate", message: string): void {
    if (this.#reported.has(kind)) return;
    this.#reported.add(kind);
    this.#logger.error(message);
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
