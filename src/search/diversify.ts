/**
 * Spreading a result list across servers and across the request's words. A task usually needs
 * tools of several servers (fetch a page, then write a file); a server with many
 * near-identical tools (five ways to get a stock price) would otherwise fill the list and hide
 * the second step's tool. Each result already taken from a server lowers the rank of the next
 * one from it by this share.
 */
export const SAME_SERVER_PENALTY = 0.1;
/**
 * Likewise, of what a result gains from a request word that a result above it already matched,
 * this share no longer counts toward its rank: the list covers more of the task's steps.
 */
export const REPEAT_DISCOUNT = 0.3;
/** Candidates ranked beyond the limit, among which a lower but different server can rise. */
export const DIVERSITY_POOL = 10;

export interface Diversifiable {
  readonly score: number;
}

export interface DiversifyBy<T> {
  /** The entry's server; entries without one are never lowered for it. */
  serverOf(entry: T): string | undefined;
  /** What the entry gains from each request word, in units of `score` (see word-coverage.ts). */
  coverageOf?(entry: T): Float64Array | undefined;
}

/**
 * The best `limit` of `ranked`, taken greedily by score lowered for what the entries before
 * already give: `SAME_SERVER_PENALTY` per entry of the same server, `REPEAT_DISCOUNT` of the
 * request words' matches they already made. Entries keep their own scores: a score says how
 * well a tool matches, the order what to look at first.
 */
export function diversify<T extends Diversifiable>(
  ranked: readonly T[],
  by: DiversifyBy<T>,
  limit: number,
): T[] {
  const pool = [...ranked];
  const taken = new Map<string, number>();
  let covered: Float64Array | undefined;
  const out: T[] = [];
  const adjusted = (entry: T) => {
    const server = by.serverOf(entry);
    const before = server === undefined ? 0 : (taken.get(server) ?? 0);
    // Never below 0: the server penalty lowers a value, it must not raise a negative one.
    const fresh = Math.max(0, entry.score - REPEAT_DISCOUNT * repeated(by.coverageOf?.(entry), covered));
    return fresh * (1 - SAME_SERVER_PENALTY) ** before;
  };
  while (out.length < limit && pool.length > 0) {
    let bestAt = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    pool.forEach((entry, at) => {
      const score = adjusted(entry);
      if (score > bestScore) {
        bestScore = score;
        bestAt = at;
      }
    });
    const [entry] = pool.splice(bestAt, 1);
    if (!entry) break;
    const server = by.serverOf(entry);
    if (server !== undefined) taken.set(server, (taken.get(server) ?? 0) + 1);
    covered = cover(covered, by.coverageOf?.(entry));
    out.push(entry);
  }
  return out;
}

/** What of `coverage` the entries taken already matched: per word, the smaller of the two. */
function repeated(coverage: Float64Array | undefined, covered: Float64Array | undefined): number {
  if (!coverage || !covered) return 0;
  let sum = 0;
  for (let at = 0; at < coverage.length; at++) sum += Math.min(coverage[at] ?? 0, covered[at] ?? 0);
  return sum;
}

/** `covered` raised, per word, to what `coverage` matches. */
function cover(
  covered: Float64Array | undefined,
  coverage: Float64Array | undefined,
): Float64Array | undefined {
  if (!coverage) return covered;
  if (!covered) return Float64Array.from(coverage);
  for (let at = 0; at < coverage.length; at++) covered[at] = Math.max(covered[at] ?? 0, coverage[at] ?? 0);
  return covered;
}
