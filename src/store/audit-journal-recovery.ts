import { existsSync, readdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { messageOf } from "../errors/message-of.ts";
import { isJournalOpenHere } from "./audit-journal.ts";
import { journalWriterPid, parseJournal } from "./audit-journal-format.ts";
import { isProcessAlive } from "./process-alive.ts";
import type { StoreWriter } from "./writer.ts";

/**
 * Copies into the audit log the journals in `folder` whose process is gone
 * (killed, crashed, or a store closed before its last flush), then removes
 * them. Their calls were sent and never completed in the store: they are kept
 * as written, outcome "started". A journal whose process still runs (another
 * gateway on the same store) is left alone. Never throws: what cannot be
 * recovered is reported to `warn` and left on disk for the next try. Returns
 * how many records were recovered.
 */
export function recoverAuditJournals(
  folder: string,
  writer: StoreWriter,
  warn: (message: string) => void,
): number {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      warn(`cannot list the audit journals in ${folder}: ${messageOf(error)}`);
    return 0;
  }
  let recovered = 0;
  for (const name of names) {
    const pid = journalWriterPid(name);
    if (pid === undefined || isJournalOpenHere(name)) continue;
    if (pid !== process.pid && isProcessAlive(pid)) continue;
    try {
      recovered += recoverJournal(join(folder, name), name, writer, warn);
    } catch (error) {
      warn(`cannot recover the audit journal ${join(folder, name)}: ${messageOf(error)}`);
    }
  }
  try {
    // Marks of journals removed before their mark was (a crash in between).
    for (const name of writer.auditJournalNames()) {
      if (!existsSync(join(folder, name))) writer.forgetAuditJournal(name);
    }
  } catch (error) {
    warn(`cannot clean up the marks of removed audit journals: ${messageOf(error)}`);
  }
  return recovered;
}

/**
 * One journal, read and copied in one transaction with its mark: two processes
 * recovering it at once copy each line once (the second sees the first's mark,
 * or no file).
 */
function recoverJournal(
  path: string,
  name: string,
  writer: StoreWriter,
  warn: (message: string) => void,
): number {
  const copied = writer.transaction(() => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const lines = parseJournal(text, (line, reason) =>
      warn(`audit journal ${path}: line ${line} skipped: ${reason}`),
    );
    const flushed = writer.auditJournalMark(name);
    let last = flushed;
    let count = 0;
    for (const { seq, entry } of lines) {
      if (seq <= flushed) continue;
      writer.appendAudit(entry);
      last = Math.max(last, seq);
      count++;
    }
    writer.markAuditJournal(name, last);
    return count;
  });
  if (copied === undefined) return 0;
  try {
    unlinkSync(path);
  } catch (error) {
    // Another process recovering it at the same time removed it first.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  writer.forgetAuditJournal(name);
  return copied;
}
