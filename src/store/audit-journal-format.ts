import { randomBytes } from "node:crypto";
import type { AuditEntry } from "./types.ts";

// What an audit journal looks like on disk, for the process writing it (audit-journal.ts)
// and the one recovering it after its writer died (audit-journal-recovery.ts).

/** The folder, in the store's directory, holding one journal per process that writes audit records. */
export const AUDIT_JOURNAL_DIR = "audit-journal";

/** `<pid>-<random>.jsonl`: the pid says whether the writer still runs, the random part tells apart two journals of one process. */
const JOURNAL_NAME = /^([1-9]\d*)-[0-9a-f]+\.jsonl$/;

/** One line: the record of a call about to be sent, numbered from 1 in its journal. */
export interface JournalLine {
  seq: number;
  entry: AuditEntry;
}

export function journalFileName(pid: number): string {
  return `${pid}-${randomBytes(6).toString("hex")}.jsonl`;
}

/** The pid of the process writing the journal `name`; undefined when `name` is not a journal's. */
export function journalWriterPid(name: string): number | undefined {
  const match = JOURNAL_NAME.exec(name);
  return match ? Number(match[1]) : undefined;
}

export function encodeJournalLine(seq: number, entry: AuditEntry): string {
  return `{"seq":${seq},"entry":${JSON.stringify(entry)}}\n`;
}

/**
 * The lines of a journal's text. A line that is not a journal line (the last
 * one torn by a crash mid-write, or a damaged file) is skipped and reported to
 * `onBadLine` with its 1-based number.
 */
export function parseJournal(text: string, onBadLine: (line: number, reason: string) => void): JournalLine[] {
  const lines: JournalLine[] = [];
  const texts = text.split("\n");
  // Text after the last newline is a line whose write did not finish.
  const torn = texts.pop();
  if (torn) onBadLine(texts.length + 1, "it has no end (its write did not finish)");
  texts.forEach((line, index) => {
    if (line === "") return;
    const parsed = parseLine(line);
    if (typeof parsed === "string") onBadLine(index + 1, parsed);
    else lines.push(parsed);
  });
  return lines;
}

/** The line, or why it is not one. */
function parseLine(text: string): JournalLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `it is not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const { seq, entry } = (value ?? {}) as {
    seq?: unknown;
    entry?: Partial<Record<keyof AuditEntry, unknown>>;
  };
  if (!Number.isSafeInteger(seq) || (seq as number) < 1) return "its seq is not a positive integer";
  if (
    typeof entry !== "object" ||
    entry === null ||
    typeof entry.time !== "number" ||
    (typeof entry.session !== "string" && entry.session !== null) ||
    typeof entry.server !== "string" ||
    typeof entry.tool !== "string" ||
    typeof entry.argsDigest !== "string" ||
    typeof entry.argsBytes !== "number" ||
    typeof entry.outcome !== "string" ||
    typeof entry.durationMs !== "number"
  ) {
    return "its entry is not an audit record";
  }
  return { seq: seq as number, entry: entry as AuditEntry };
}
