import type { LogEntry } from "../sandbox/types.ts";
import { estimateTokens } from "./estimate.ts";
import { formatCount } from "./format-number.ts";
import type { Tokenizer } from "./tokenizer.ts";
import { truncateText } from "./truncate-text.ts";

/** Share of the logs' budget given to the first lines; the last lines get the rest. */
const LOG_HEAD_SHARE = 0.6;
const MARKER_RESERVE_TOKENS = 24;
/** A line is cut to fit only when at least this many tokens of it can be shown. */
const MIN_LINE_TOKENS = 16;
/** Logs longer than this are sized by a sampled estimate. */
const QUICK_EXACT_CHARS = 32_768;
export const SANDBOX_LOG_CAP_MARKER =
  "[… logs truncated at the sandbox's size limit (sandbox.maxLogBytes) …]";

export interface FittedLogs {
  /** The log lines to show, markers included. */
  text: string;
  /** The same lines as entries; markers are `info` entries. */
  entries: LogEntry[];
  reduced: boolean;
  omittedLines: number;
  originalTokens: number;
}

/** Entries this module added (cut markers): shown as they are, without a level. */
const markers = new WeakSet<LogEntry>();

function marker(message: string): LogEntry {
  const entry: LogEntry = { level: "info", message };
  markers.add(entry);
  return entry;
}

/** One log entry as the model reads it: plain for `console.log` and markers, with its level otherwise. */
export function renderLogLine(entry: LogEntry): string {
  return entry.level === "log" || markers.has(entry) ? entry.message : `[${entry.level}] ${entry.message}`;
}

/**
 * Keeps the first and last log lines within `maxTokens` (the first lines usually
 * say what ran, the last ones how it ended), with a marker counting the lines cut.
 */
export function fitLogs(
  entries: readonly LogEntry[],
  maxTokens: number,
  tokenizer: Tokenizer,
  cappedAtSource = false,
): FittedLogs {
  const all = toEntries(entries, cappedAtSource);
  const fullText = all.map(renderLogLine).join("\n");
  const original = estimateTokens(tokenizer, fullText, QUICK_EXACT_CHARS).tokens;
  if (original <= maxTokens) {
    return { text: fullText, entries: all, reduced: false, omittedLines: 0, originalTokens: original };
  }
  const content = Math.max(0, maxTokens - MARKER_RESERVE_TOKENS);
  const head = takeLines(all, Math.floor(content * LOG_HEAD_SHARE), tokenizer);
  const remaining = all.slice(head.lines.length);
  const tail = takeLines([...remaining].reverse(), content - head.tokens, tokenizer);
  tail.lines.reverse();
  const omitted = all.length - head.lines.length - tail.lines.length;
  const keptTokens = head.tokens + tail.tokens;
  const cutMarker = marker(
    `[… ${formatCount(omitted)} of ${formatCount(all.length)} log lines omitted here (~${formatCount(Math.max(0, original - keptTokens))} tokens) …]`,
  );
  const kept = [...head.lines, ...(omitted > 0 || head.cut || tail.cut ? [cutMarker] : []), ...tail.lines];
  return {
    text: kept.map(renderLogLine).join("\n"),
    entries: kept,
    reduced: true,
    omittedLines: omitted,
    originalTokens: original,
  };
}

function toEntries(entries: readonly LogEntry[], cappedAtSource: boolean): LogEntry[] {
  return cappedAtSource ? [...entries, marker(SANDBOX_LOG_CAP_MARKER)] : [...entries];
}

/** Lines from the start of `lines` within `budget`; the first line that does not fit is cut when room allows. */
function takeLines(
  lines: readonly LogEntry[],
  budget: number,
  tokenizer: Tokenizer,
): { lines: LogEntry[]; tokens: number; cut: boolean } {
  const taken: LogEntry[] = [];
  let used = 0;
  for (const line of lines) {
    // +1 for the line break joining it to the next.
    const tokens = estimateTokens(tokenizer, renderLogLine(line)).tokens + 1;
    if (used + tokens <= budget) {
      taken.push(line);
      used += tokens;
      continue;
    }
    const prefix = line.level === "log" ? 0 : tokenizer.count(`[${line.level}] `);
    const room = budget - used - 1 - prefix;
    if (room >= MIN_LINE_TOKENS) {
      const cut = truncateText(line.message, room, tokenizer);
      const shortened = { level: line.level, message: cut.text };
      if (markers.has(line)) markers.add(shortened);
      taken.push(shortened);
      used += cut.tokens + prefix + 1;
      return { lines: taken, tokens: used, cut: true };
    }
    break;
  }
  return { lines: taken, tokens: used, cut: false };
}
