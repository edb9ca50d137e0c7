import type { PiiMatch } from "./detectors.ts";

const INITIAL_CAPACITY = 64;
/** Most scanned strings (names, labels, ids) hold nothing: a list allocates on its first match. */
const NO_POSITIONS = new Int32Array(0);
const NO_KINDS = new Uint16Array(0);

/**
 * The findings of one scan, in columns. On text made of little but personal
 * data (millions of short e-mails), one object and two strings per match cost
 * more than finding it; numbers in typed arrays cost almost nothing. The
 * matched text is not kept: it is `text.slice(start, end)` of the scanned text.
 */
export class MatchList {
  #length = 0;
  #starts = NO_POSITIONS;
  #ends = NO_POSITIONS;
  /** Index into #kindNames: a scan finds a handful of kinds. */
  #kinds = NO_KINDS;
  readonly #kindNames: string[] = [];
  /** Keys that differ from the matched text, by match index (holes elsewhere). */
  readonly #keys: Array<string | undefined> = [];

  get length(): number {
    return this.#length;
  }

  kind(index: number): string {
    return this.#kindNames[this.#kinds[index] as number] as string;
  }

  start(index: number): number {
    return this.#starts[index] as number;
  }

  end(index: number): number {
    return this.#ends[index] as number;
  }

  /** Identity key for stable tokens, or undefined when it is the matched text itself. */
  key(index: number): string | undefined {
    return this.#keys[index];
  }

  add(kind: string, start: number, end: number, key?: string): void {
    if (this.#length === this.#starts.length) this.#grow();
    const index = this.#length++;
    this.#starts[index] = start;
    this.#ends[index] = end;
    this.#kinds[index] = this.#kindCode(kind);
    if (key !== undefined) this.#keys[index] = key;
  }

  /** Appends match `index` of `from`, moved by `offset`. */
  addFrom(from: MatchList, index: number, offset = 0): void {
    this.add(from.kind(index), from.start(index) + offset, from.end(index) + offset, from.key(index));
  }

  /** Whether each match starts at or after the end of the one before. */
  inOrderApart(): boolean {
    let lastEnd = 0;
    for (let i = 0; i < this.#length; i++) {
      if ((this.#starts[i] as number) < lastEnd) return false;
      lastEnd = this.#ends[i] as number;
    }
    return true;
  }

  /** The same matches ordered by where they start. */
  sortedByStart(): MatchList {
    const order = Array.from({ length: this.#length }, (_, i) => i).sort(
      (a, b) => (this.#starts[a] as number) - (this.#starts[b] as number),
    );
    const sorted = new MatchList();
    for (const index of order) sorted.addFrom(this, index);
    return sorted;
  }

  /** The matches as objects, moved by `offset` (where the scanned text starts in `text`), their values cut from `text`. */
  toMatches(text: string, offset = 0): PiiMatch[] {
    const matches: PiiMatch[] = [];
    for (let i = 0; i < this.#length; i++) {
      const start = this.start(i) + offset;
      const end = this.end(i) + offset;
      const value = text.slice(start, end);
      matches.push({ kind: this.kind(i), start, end, value, key: this.key(i) ?? value });
    }
    return matches;
  }

  #kindCode(kind: string): number {
    const names = this.#kindNames;
    if (names[0] === kind) return 0;
    for (let code = 0; code < names.length; code++) if (names[code] === kind) return code;
    names.push(kind);
    return names.length - 1;
  }

  #grow(): void {
    const capacity = Math.max(INITIAL_CAPACITY, this.#starts.length * 2);
    const grown = (from: Int32Array) => {
      const to = new Int32Array(capacity);
      to.set(from);
      return to;
    };
    this.#starts = grown(this.#starts);
    this.#ends = grown(this.#ends);
    const kinds = new Uint16Array(capacity);
    kinds.set(this.#kinds);
    this.#kinds = kinds;
  }
}
