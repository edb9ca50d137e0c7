/** Pieces replaced by kind in `current` since `before` (an earlier copy of it); kinds with none left out. */
export function replacedSince(
  current: ReadonlyMap<string, number>,
  before: ReadonlyMap<string, number>,
): Record<string, number> {
  const since: Record<string, number> = {};
  for (const [kind, count] of current) {
    const added = count - (before.get(kind) ?? 0);
    if (added > 0) since[kind] = added;
  }
  return since;
}
