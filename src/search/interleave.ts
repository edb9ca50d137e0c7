/** An entry of a ranked list: a document slot and its score in that list. */
export interface RankedEntry {
  readonly slot: number;
  readonly score: number;
}

/**
 * Merges ranked lists round-robin (the whole query's list first, then each intent's),
 * so every step of a multi-step task gets a place near the top. A document already
 * taken is skipped; its score is the best it has in any list.
 */
export function interleave<T extends RankedEntry>(lists: readonly (readonly T[])[], limit: number): T[] {
  const best = new Map<number, T>();
  for (const list of lists) {
    for (const entry of list) {
      const previous = best.get(entry.slot);
      if (!previous || previous.score < entry.score) best.set(entry.slot, entry);
    }
  }
  const taken = new Set<number>();
  const merged: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let depth = 0; depth < longest && merged.length < limit; depth++) {
    for (const list of lists) {
      const entry = list[depth];
      if (!entry || taken.has(entry.slot)) continue;
      taken.add(entry.slot);
      merged.push(best.get(entry.slot) ?? entry);
      if (merged.length >= limit) break;
    }
  }
  return merged;
}
