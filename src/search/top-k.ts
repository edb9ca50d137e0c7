/**
 * The `k` best slots seen, kept in a min-heap (O(n log k) for n offers). Slots are offered in
 * increasing order, so among equal values the lower slot (the earlier indexed document) ranks
 * first: a later slot equal to the worst kept does not enter.
 */
export class TopSlots {
  readonly #k: number;
  readonly #slots: number[] = [];
  readonly #values: number[] = [];
  /** What a value must exceed to enter: -Infinity while fewer than `k` are kept. */
  floor = Number.NEGATIVE_INFINITY;

  constructor(k: number) {
    this.#k = Math.max(0, k);
    if (this.#k === 0) this.floor = Number.POSITIVE_INFINITY;
  }

  /** Keeps `slot` if `value` exceeds `floor` (checked by callers first: most offers stop there). */
  offer(slot: number, value: number): void {
    if (!(value > this.floor)) return;
    const slots = this.#slots;
    const values = this.#values;
    if (slots.length < this.#k) {
      slots.push(slot);
      values.push(value);
      for (let at = slots.length - 1; at > 0; ) {
        const parent = (at - 1) >> 1;
        if (!this.#worse(at, parent)) break;
        this.#swap(at, parent);
        at = parent;
      }
    } else {
      slots[0] = slot;
      values[0] = value;
      for (let at = 0; ; ) {
        const left = 2 * at + 1;
        let smallest = at;
        if (left < slots.length && this.#worse(left, smallest)) smallest = left;
        if (left + 1 < slots.length && this.#worse(left + 1, smallest)) smallest = left + 1;
        if (smallest === at) break;
        this.#swap(at, smallest);
        at = smallest;
      }
    }
    if (slots.length === this.#k) this.floor = values[0] as number;
  }

  /** The slots kept, best first. */
  best(): number[] {
    const order = this.#slots.map((_, at) => at);
    order.sort((a, b) => (this.#worse(a, b) ? 1 : this.#worse(b, a) ? -1 : 0));
    return order.map((at) => this.#slots[at] as number);
  }

  /** Whether entry `a` ranks below entry `b`. */
  #worse(a: number, b: number): boolean {
    const va = this.#values[a] as number;
    const vb = this.#values[b] as number;
    return va < vb || (va === vb && (this.#slots[a] as number) > (this.#slots[b] as number));
  }

  #swap(a: number, b: number): void {
    const slots = this.#slots;
    const values = this.#values;
    const slot = slots[a] as number;
    slots[a] = slots[b] as number;
    slots[b] = slot;
    const value = values[a] as number;
    values[a] = values[b] as number;
    values[b] = value;
  }
}

/**
 * The `k` slots with the highest `values[slot]`, best first; NaN marks a slot that is not a
 * candidate, and `accept`, when given, must pass a slot too.
 */
export function topSlots(values: Float64Array, k: number, accept?: (slot: number) => boolean): number[] {
  const top = new TopSlots(k);
  for (let slot = 0; slot < values.length; slot++) {
    const value = values[slot] as number;
    // NaN fails the comparison too.
    if (!(value > top.floor) || (accept !== undefined && !accept(slot))) continue;
    top.offer(slot, value);
  }
  return top.best();
}
