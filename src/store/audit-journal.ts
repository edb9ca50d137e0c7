import { closeSync, constants, ftruncateSync, mkdirSync, openSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { encodeJournalLine, journalFileName } from "./audit-journal-format.ts";
import { StoreError } from "./errors.ts";
import type { AuditEntry, AuditJournal } from "./types.ts";

/** Journals open in this process, by file name: their pid is ours, yet they are not left over. */
const OPEN_HERE = new Set<string>();

/** Whether this process has the journal `name` open (recovery leaves it alone). */
export function isJournalOpenHere(name: string): boolean {
  return OPEN_HERE.has(name);
}

/** Where a journal records how far it is flushed: the `audit_journals` table, in the writer's transaction. */
export interface JournalMarks {
  mark(name: string, flushedSeq: number): void;
  forget(name: string): void;
}

/**
 * A journal file, `<folder>/<pid>-<random>.jsonl`, opened O_APPEND: each
 * `append` is one `write` of one JSON line, with no fsync. Once `append`
 * returns, the line is in the operating system's cache, so it survives the
 * process being killed (even SIGKILL) and is lost only if the machine loses
 * power or the kernel crashes before the cache reaches the disk: the guarantee
 * of a SQLite WAL commit with synchronous=NORMAL, which is what the record
 * written before each call had before (`appendAuditNow`), at a tenth of the cost.
 * Lines are numbered; the store keeps the number up to which they were flushed,
 * so lines that outlive their flush (a crash before `truncate`) are not copied twice.
 */
export class AuditJournalFile implements AuditJournal {
  readonly name: string;
  readonly path: string;
  readonly #folder: string;
  readonly #marks: JournalMarks;
  #fd: number | undefined;
  #closed = false;
  /** Sequence number of the last line written whole. */
  #appended = 0;
  /** What `markFlushed` wrote in the current batch, until `truncate` confirms it committed. */
  #marking = 0;
  /** Every line up to this one is in the audit log (committed). */
  #flushed = 0;

  constructor(folder: string, marks: JournalMarks) {
    this.#folder = folder;
    this.#marks = marks;
    this.name = journalFileName(process.pid);
    this.path = join(folder, this.name);
    OPEN_HERE.add(this.name);
  }

  append(entry: AuditEntry): void {
    if (this.#closed) {
      throw new StoreError("store.closed", `the audit journal ${this.path} is closed`, { path: this.path });
    }
    this.#fd ??= this.#open();
    const seq = this.#appended + 1;
    const line = encodeJournalLine(seq, entry);
    const written = writeSync(this.#fd, line);
    const length = Buffer.byteLength(line);
    if (written !== length) {
      // End the fragment, so the next line starts on its own (recovery skips the fragment).
      writeSync(this.#fd, "\n");
      throw new StoreError(
        "store.journal_write_failed",
        `wrote ${written} of ${length} bytes of a line to the audit journal ${this.path}`,
        { path: this.path },
      );
    }
    this.#appended = seq;
  }

  markFlushed(): void {
    if (this.#appended === this.#flushed) return;
    this.#marks.mark(this.name, this.#appended);
    this.#marking = this.#appended;
  }

  truncate(): void {
    if (this.#marking <= this.#flushed) return;
    this.#flushed = this.#marking;
    // Lines appended since the mark (while the batch committed) are not in the store: keep
    // the file whole, its mark tells recovery which lines to skip; a later flush empties it.
    if (this.#fd !== undefined && this.#appended === this.#marking) ftruncateSync(this.#fd, 0);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    OPEN_HERE.delete(this.name);
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    // Lines not flushed stay on disk: the next store opened on this directory copies them.
    if (this.#flushed < this.#appended) return;
    try {
      unlinkSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    this.#marks.forget(this.name);
  }

  #open(): number {
    // 0700/0600 like the database: records name sessions and clients.
    mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
    return openSync(this.path, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o600);
  }
}
