/**
 * Spreading a result list across servers. A task usually needs tools of several servers
 * (fetch a page, then write a file); a server with many near-identical tools (five ways to
 * get a stock price) would otherwise fill the list and hide the second step's tool. Each
 * result already taken from a server lowers the rank of the next one from it by this share.
 */
export const SAME_SERVER_PENALTY = 0.1;
/** Candidates ranked beyond the limit, among which a lower but different server can rise. */
export const DIVERSITY_POOL = 10;

export interface Diversifiable {
  readonly score: number;
}

/**
 * The best `limit` of `ranked` in the order of their scores lowered by `SAME_SERVER_PENALTY`
 * for every result of the same server before them (entries without a server are never
 * lowered). Entries keep their own scores: a score says how well a tool matches, the order
 * what to look at first.
 */
export function diversify<T extends Diversifiable>(
  ranked: readonly T[],
  serverOf: (entry: T) => string | undefined,
  limit: number,
): T[] {
  const pool = [...ranked];
  const taken = new Map<string, number>();
  const out: T[] = [];
  const adjusted = (entry: T) => {
    const server = serverOf(entry);
    const before = server === undefined ? 0 : (taken.get(server) ?? 0);
    return entry.score * (1 - SAME_SERVER_PENALTY) ** before;
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
    const server = serverOf(entry);
    if (server !== undefined) taken.set(server, (taken.get(server) ?? 0) + 1);
    out.push(entry);
  }
  return out;
}
