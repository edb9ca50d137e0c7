/**
 * The `k` best of `ids` by `score`, best first, in O(n log k) with a min-heap;
 * equal scores rank the lower id (the earlier indexed document) first.
 */
export function topK(ids: Iterable<number>, k: number, score: (id: number) => number): number[] {
  if (k <= 0) return [];
  const heapIds: number[] = [];
  const heapScores: number[] = [];
  /** Whether entry `a` ranks below entry `b`. */
  const worse = (a: number, b: number) => {
    const sa = heapScores[a] ?? 0;
    const sb = heapScores[b] ?? 0;
    return sa < sb || (sa === sb && (heapIds[a] ?? 0) > (heapIds[b] ?? 0));
  };
  const swap = (a: number, b: number) => {
    const id = heapIds[a] ?? 0;
    heapIds[a] = heapIds[b] ?? 0;
    heapIds[b] = id;
    const score = heapScores[a] ?? 0;
    heapScores[a] = heapScores[b] ?? 0;
    heapScores[b] = score;
  };
  for (const id of ids) {
    const value = score(id);
    if (heapIds.length < k) {
      heapIds.push(id);
      heapScores.push(value);
      for (let at = heapIds.length - 1; at > 0; ) {
        const parent = (at - 1) >> 1;
        if (!worse(at, parent)) break;
        swap(at, parent);
        at = parent;
      }
      continue;
    }
    const rootScore = heapScores[0] ?? 0;
    if (value < rootScore || (value === rootScore && id > (heapIds[0] ?? 0))) continue;
    heapIds[0] = id;
    heapScores[0] = value;
    for (let at = 0; ; ) {
      const left = 2 * at + 1;
      let smallest = at;
      if (left < heapIds.length && worse(left, smallest)) smallest = left;
      if (left + 1 < heapIds.length && worse(left + 1, smallest)) smallest = left + 1;
      if (smallest === at) break;
      swap(at, smallest);
      at = smallest;
    }
  }
  const order = heapIds.map((_, at) => at);
  order.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  return order.map((at) => heapIds[at] ?? 0);
}
