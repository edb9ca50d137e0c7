import type { PiiDetector } from "./detect.ts";
import { MAX_MATCH_CHARS } from "./detectors.ts";
import { MatchList } from "./match-list.ts";

/** How a large text is scanned without holding the event loop. */
export interface ChunkedScanOptions {
  /** Characters scanned between two yields (~1–3 ms of work at the detectors' speed). */
  chunkChars?: number | undefined;
  /** Lets other work run between chunks; `setImmediate` by default, so I/O of other sessions gets in. */
  pause?: (() => Promise<void>) | undefined;
}

export const DEFAULT_CHUNK_CHARS = 128 * 1024;
/**
 * Each chunk is scanned with this much text of its neighbours on both sides:
 * a match starting in the chunk (at most MAX_MATCH_CHARS long) is whole in the
 * window, and whatever the cut edges of the window make the detectors see
 * (a match begun mid-word) ends well before the chunk starts.
 */
export const CHUNK_OVERLAP_CHARS = 3 * MAX_MATCH_CHARS;

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The matches that start in one chunk, at positions of the window they were found in (add `offset`). */
export interface ChunkMatches {
  matches: MatchList;
  offset: number;
  /** Whether more chunks follow. */
  more: boolean;
}

/**
 * `detector.detect(text)` one chunk at a time, in text order: the same
 * matches as one scan (built-in kinds never exceed MAX_MATCH_CHARS; a custom
 * pattern's match longer than the overlap can be cut at a chunk edge). A
 * consumer that handles each chunk's matches before the next lets them die
 * young instead of holding millions for the whole text.
 */
export function* chunkMatches(
  detector: PiiDetector,
  text: string,
  chunkChars: number,
): Generator<ChunkMatches> {
  const chunk = Math.max(chunkChars, 1);
  if (text.length <= chunk) {
    yield { matches: detector.scan(text), offset: 0, more: false };
    return;
  }
  let lastEnd = 0;
  for (let start = 0; start < text.length; start += chunk) {
    const end = Math.min(text.length, start + chunk);
    const offset = Math.max(0, start - CHUNK_OVERLAP_CHARS);
    const found = detector.scan(text.slice(offset, Math.min(text.length, end + CHUNK_OVERLAP_CHARS)));
    const matches = new MatchList();
    for (let i = 0; i < found.length; i++) {
      const matchStart = found.start(i) + offset;
      // Each match belongs to the chunk it starts in; one overlapping an earlier match is dropped.
      if (matchStart < start || matchStart >= end || matchStart < lastEnd) continue;
      matches.addFrom(found, i);
      lastEnd = found.end(i) + offset;
    }
    yield { matches, offset, more: end < text.length };
  }
}
