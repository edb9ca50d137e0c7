import { messageOf } from "../errors/message-of.ts";
import type { Logger } from "../gateway/logger.ts";
import type { AuditStore } from "../store/domains.ts";
import type { AuditEntry, AuditJournal } from "../store/types.ts";
import { replicaId } from "./replica-id.ts";

export type AuditStderrLevel = "off" | "violations" | "executions" | "calls";

/** Records wait at most this long, or until this many are pending, before one transaction writes them. */
export const AUDIT_FLUSH_MS = 50;
export const AUDIT_FLUSH_ENTRIES = 500;
/** Records that failed flushes keep for the next one, at most; beyond, the oldest are dropped. */
export const AUDIT_RETRY_ENTRIES = 10_000;
/** After a failed flush, the next try waits this long (an unreachable store is not hammered). */
export const AUDIT_RETRY_MS = 1_000;

/** Outcome of a record written before its call ran, until the call ends. */
export const STARTED_OUTCOME = "started";

/** A call begun by `begin`, to be completed by `complete`. */
export class AuditTicket {
  /** Its row in the store, once written there; undefined while it is only in the journal or being written. */
  id: number | undefined = undefined;
  /**
   * Set while `begin` commits the started record itself (no journal, e.g.
   * PostgreSQL): settles, never rejects, once it is committed or its failure
   * logged. The call waits for it before it goes out.
   */
  written: Promise<void> | undefined = undefined;
  /** `complete` was called. */
  completed = false;
}

/** What a flush writes: a new record, or (ticket with an id) the completion of one already written. */
interface PendingRecord {
  entry: AuditEntry;
  ticket?: AuditTicket | undefined;
}

type FailureKind = "journal" | "begin" | "flush" | "truncate" | "dropped";

/**
 * Records executions and tool calls durably in the store and, at the
 * configured level, as JSON lines through the logger (stderr in the CLI).
 *
 * A tool call is in the store, or on disk, before it is sent: `begin` appends
 * it to this process's audit journal (SQLite in a data directory: one write,
 * no fsync; see AuditJournalFile), or else commits it to the store itself
 * (PostgreSQL: `ticket.written`, which the call awaits). `complete` queues its
 * final record; every flush (at most AUDIT_FLUSH_MS or AUDIT_FLUSH_ENTRIES
 * away; one at a time) writes in one transaction each completed call (one row,
 * or the completion of its started row), a "started" row for each call still
 * running but only journaled, and the journal's mark, then empties the
 * journal. If the process dies, the next SQLite store opened on its directory
 * copies the journal as "started" records.
 *
 * A failing store never fails the call it records: the error is logged once,
 * and the records wait for the next flush (AUDIT_RETRY_MS later, at most
 * AUDIT_RETRY_ENTRIES of them).
 */
export class AuditLog {
  readonly #store: AuditStore | undefined;
  readonly #journal: AuditJournal | undefined;
  readonly #level: AuditStderrLevel;
  readonly #write: ((line: string) => void) | undefined;
  readonly #observe: ((entry: AuditEntry) => void) | undefined;
  readonly #logger: Logger;
  readonly #replica: string;
  #pending: PendingRecord[] = [];
  /** Calls begun whose started row is not in the store: journaled only, or its own commit failed. */
  readonly #notInStore = new Map<AuditTicket, AuditEntry>();
  /** Records committed one by one (`begin` without a journal, `recordNow`), until they settle. */
  readonly #writes = new Set<Promise<void>>();
  /** The journal failed once: calls are committed to the store directly from then on. */
  #journalBroken = false;
  /** The last flush failed: the next waits AUDIT_RETRY_MS instead of being due at once. */
  #failing = false;
  /** Failures already logged, until writes succeed again. */
  readonly #reported = new Set<FailureKind>();
  #timer: NodeJS.Timeout | undefined;
  /** The flush under way, and the one that follows it (which takes everything queued until it starts). */
  #running: Promise<void> | undefined;
  #queued: Promise<void> | undefined;
  #closed = false;

  constructor(options: {
    store: AuditStore | undefined;
    level: AuditStderrLevel;
    logger: Logger;
    write?: (line: string) => void;
    /** Told of every final record (not "started" ones): the metrics count what the audit records. */
    observe?: (entry: AuditEntry) => void;
    /** Written in every record; default `replicaId()`. */
    replica?: string;
  }) {
    this.#observe = options.observe;
    this.#store = options.store;
    this.#level = options.level;
    this.#logger = options.logger;
    this.#replica = options.replica ?? replicaId();
    this.#write = options.write ?? options.logger.audit?.bind(options.logger);
    try {
      this.#journal = options.store?.openJournal();
    } catch (error) {
      this.#report("journal", `cannot open the audit journal: ${messageOf(error)}`);
    }
  }

  /**
   * Puts `entry` (outcome "started") on disk, or in the store, before the
   * call goes out: at once with a journal, else once `ticket.written` settles.
   * The record then exists even when the process dies while the call runs.
   */
  begin(entry: AuditEntry): AuditTicket {
    const ticket = new AuditTicket();
    const store = this.#store;
    if (!store) return ticket;
    entry.replica ??= this.#replica;
    const started = entry.outcome === STARTED_OUTCOME ? entry : { ...entry, outcome: STARTED_OUTCOME };
    if (this.#journal && !this.#journalBroken) {
      try {
        this.#journal.append(started);
        this.#notInStore.set(ticket, started);
        this.#schedule();
        return ticket;
      } catch (error) {
        this.#journalBroken = true;
        this.#report(
          "journal",
          `audit journal write failed: ${messageOf(error)}; tool calls are committed to the store one by one instead`,
        );
      }
    }
    ticket.written = this.#track(
      store.appendNow(started).then(
        (id) => {
          ticket.id = id;
          this.#reported.delete("begin");
        },
        (error: unknown) => {
          this.#report("begin", `audit log write failed: ${messageOf(error)}`);
          // The next flush writes its started row, unless the call is over by then.
          if (!ticket.completed) this.#notInStore.set(ticket, started);
          this.#schedule();
        },
      ),
      () => {
        ticket.written = undefined;
      },
    );
    return ticket;
  }

  /** The call of `ticket` ended as `entry` says: its record is written (or completed) with the next flush. */
  complete(ticket: AuditTicket, entry: AuditEntry, violation: boolean): void {
    ticket.completed = true;
    // Not in the store yet: the flush writes the final record instead of "started" then an update.
    this.#notInStore.delete(ticket);
    entry.replica ??= this.#replica;
    this.#enqueue({ entry, ticket });
    this.#print(entry, violation);
  }

  record(entry: AuditEntry, violation: boolean): void {
    entry.replica ??= this.#replica;
    this.#enqueue({ entry });
    this.#print(entry, violation);
  }

  /**
   * Like `record`, but written now in its own commit (one per execution: cheap,
   * and kept through a kill). Resolves, never rejects, once it is committed or
   * its failure logged (the record then waits for the next flush).
   */
  recordNow(entry: AuditEntry, violation: boolean): Promise<void> {
    entry.replica ??= this.#replica;
    this.#print(entry, violation);
    const store = this.#store;
    if (!store) return Promise.resolve();
    return this.#track(
      store.appendNow(entry).then(
        () => {
          this.#reported.delete("begin");
        },
        (error: unknown) => {
          this.#report("begin", `audit log write failed: ${messageOf(error)}`);
          this.#enqueue({ entry });
        },
      ),
    );
  }

  /**
   * Writes every pending record, and a "started" row for each call still
   * running but not in the store, in one transaction. Resolves (never rejects)
   * once what was queued before the call is committed, or the attempt failed
   * and was logged.
   */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#store) return Promise.resolve();
    // One batch at a time, so that a completion finds the id the batch before gave its call;
    // flushes asked for while one is under way share the next.
    if (this.#queued) return this.#queued;
    if (!this.#running) return this.#startFlush();
    const queued = this.#running.then(() => this.#startFlush());
    this.#queued = queued;
    return queued;
  }

  /** Flushes, then schedules no more flushes (the store is about to close): what still fails is lost. */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #startFlush(): Promise<void> {
    this.#queued = undefined;
    const run: Promise<void> = this.#flushOnce().finally(() => {
      if (this.#running === run) this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  async #flushOnce(): Promise<void> {
    const store = this.#store;
    if (!store) return;
    // Completions of calls whose own commit is under way (no journal) wait for its id.
    if (this.#writes.size > 0) await Promise.all(this.#writes);
    if (this.#pending.length === 0 && this.#notInStore.size === 0) return;
    // From here to `write`, nothing awaits: the journal's mark then covers exactly this batch.
    const ready: PendingRecord[] = [];
    const waiting: PendingRecord[] = [];
    for (const record of this.#pending) (record.ticket?.written ? waiting : ready).push(record);
    this.#pending = waiting;
    const running = [...this.#notInStore];
    const complete: Array<{ id: number; entry: AuditEntry }> = [];
    const append: AuditEntry[] = [];
    for (const { entry, ticket } of ready) {
      if (ticket?.id !== undefined) complete.push({ id: ticket.id, entry });
      else append.push(entry);
    }
    const firstStarted = append.length;
    for (const [, entry] of running) append.push(entry);
    const journal = this.#journal;
    let ids: number[];
    try {
      ids = await store.write({ complete, append, journal });
    } catch (error) {
      this.#keep(ready, running, error);
      return;
    }
    this.#failing = false;
    this.#reported.delete("flush");
    this.#reported.delete("begin");
    this.#reported.delete("dropped");
    // Ids only once committed: a failed batch leaves the calls not in the store, for the next flush.
    running.forEach(([ticket], index) => {
      ticket.id = ids[firstStarted + index];
      this.#notInStore.delete(ticket);
    });
    if (this.#pending.length > 0 || this.#notInStore.size > 0) this.#schedule();
    try {
      journal?.truncate();
    } catch (error) {
      // Harmless but for the file's size: its mark says which lines are in the store.
      this.#report("truncate", `cannot empty the audit journal: ${messageOf(error)}`);
    }
  }

  /**
   * After a failed flush (its batch rolled back): its records go back first in
   * line, the calls it would have written as started (and still running) stay
   * not in the store, and the next flush tries again AUDIT_RETRY_MS later.
   */
  #keep(records: PendingRecord[], running: Array<[AuditTicket, AuditEntry]>, error: unknown): void {
    for (const [ticket, entry] of running) if (!ticket.completed) this.#notInStore.set(ticket, entry);
    this.#pending = records.concat(this.#pending);
    this.#failing = true;
    this.#report(
      "flush",
      `audit log write of ${records.length + running.length} records failed: ${messageOf(error)}; they are kept (at most ${AUDIT_RETRY_ENTRIES}) and retried every ${AUDIT_RETRY_MS} ms`,
    );
    this.#bound();
    this.#schedule();
  }

  /** Drops the oldest waiting records beyond AUDIT_RETRY_ENTRIES (logged once per outage). */
  #bound(): void {
    let excess = this.#pending.length + this.#notInStore.size - AUDIT_RETRY_ENTRIES;
    if (excess <= 0) return;
    const dropped = excess;
    const fromPending = Math.min(excess, this.#pending.length);
    this.#pending.splice(0, fromPending);
    excess -= fromPending;
    for (const ticket of this.#notInStore.keys()) {
      if (excess-- <= 0) break;
      this.#notInStore.delete(ticket);
    }
    this.#report(
      "dropped",
      `audit records dropped: more than ${AUDIT_RETRY_ENTRIES} wait for the store (${dropped} dropped now)`,
    );
  }

  #enqueue(record: PendingRecord): void {
    if (!this.#store) return;
    this.#pending.push(record);
    if (this.#failing) this.#bound();
    else if (this.#pending.length >= AUDIT_FLUSH_ENTRIES) {
      void this.flush();
      return;
    }
    this.#schedule();
  }

  /** A flush within AUDIT_FLUSH_MS, or AUDIT_RETRY_MS while the store fails. */
  #schedule(): void {
    if (this.#closed) return;
    this.#timer ??= setTimeout(
      () => void this.flush(),
      this.#failing ? AUDIT_RETRY_MS : AUDIT_FLUSH_MS,
    ).unref();
  }

  /** Keeps `write` in `#writes` until it settles (a flush waits for it), then runs `settled`. */
  #track(write: Promise<void>, settled?: () => void): Promise<void> {
    const tracked = write.finally(() => {
      settled?.();
      this.#writes.delete(tracked);
    });
    this.#writes.add(tracked);
    return tracked;
  }

  #print(entry: AuditEntry, violation: boolean): void {
    this.#observe?.(entry);
    if (this.#write && this.#shouldPrint(entry, violation)) {
      this.#write(
        JSON.stringify({ audit: entry.kind ?? "tool_call", ...entry, violation: violation || undefined }),
      );
    }
  }

  /** Logs `message` unless a failure of this kind was logged since writes last succeeded. */
  #report(kind: FailureKind, message: string): void {
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
